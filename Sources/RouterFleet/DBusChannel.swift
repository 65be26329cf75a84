import DBus
package import OpenThreadREST
package import DeviceModel
package import MeshCoP
package import OpenThreadBR
package import TBRFoundation

/// A border router's otbr-agent on this host's D-Bus (`io.openthread.BorderRouter.<if>`), through
/// ``OpenThreadBR/BorderRouterAgent``.
package struct DBusChannel: RouterChannel {
    package let agent: BorderRouterAgent
    package let logger: Logger
    /// The same agent's REST API on this host (`agent-rest`), read for the mesh beyond its own
    /// neighbours; nil: none configured.
    package let rest: RESTAgent?

    package init(agent: BorderRouterAgent, logger: Logger, rest: RESTAgent? = nil) {
        self.agent = agent
        self.logger = logger
        self.rest = rest
    }

    /// The agent's own switches.
    package var policyControls: (any PolicyControls)? { agent }

    package var transport: RouterTransport { .dbus }
    package var address: String { agent.busName.rawValue }
    package var agentName: String { "otbr-agent for \(agent.interfaceName)" }

    package func currentInstance() async -> String? {
        try? await agent.connection.nameOwner(of: agent.busName)
    }

    package func readIdentity() async throws(RouterCallError) -> RouterIdentity {
        do {
            let (role, version, id, xa) = try await agent.read(.deviceRole, .otbrVersion, .borderAgentID, .extendedAddress)
            return RouterIdentity(role: role, borderAgentID: id, extendedAddress: xa, softwareVersion: version, wholeNetworkMigration: true)
        } catch where error.cause == .notSupported {
            // An NCP agent has no GetProperties (nor AttachAllNodesTo); it still joins and leaves.
            let role = try await call { () throws(AgentError) in try await agent.deviceRole() }
            return RouterIdentity(role: role, borderAgentID: nil, extendedAddress: nil, softwareVersion: nil, wholeNetworkMigration: false)
        } catch {
            throw Self.error(error)
        }
    }

    package func deviceRole() async throws(RouterCallError) -> DeviceRole {
        try await call { () throws(AgentError) in try await agent.deviceRole() }
    }

    package func activeDataset() async throws(RouterCallError) -> OperationalDataset? {
        try await call { () throws(AgentError) in try await agent.activeDataset() }
    }

    package func datasetTLVs(pending: Bool) async throws(RouterCallError) -> [UInt8]? {
        let tlvs = try await call { () throws(AgentError) in
            pending ? try await agent.pendingDatasetTLVs() : try await agent.activeDatasetTLVs()
        }
        return tlvs?.isEmpty == false ? tlvs : nil
    }

    package func epskcEnabled() async throws(RouterCallError) -> Bool {
        try await call { () throws(AgentError) in try await agent.read(.ephemeralKeyEnabled) }
    }

    package func internetAccess() async throws(RouterCallError) -> ThreadNetworkCapabilitiesTrait.InternetAccessOption {
        let built = try await call { () throws(AgentError) in try await agent.read(.capabilities) }
        return .init(nat64: built.supportsNat64, dhcpv6PrefixDelegation: built.supportsDhcp6PD)
    }

    package func softwareVersion() async throws(RouterCallError) -> String {
        try await call { () throws(AgentError) in try await agent.read(.otbrVersion) }
    }

    package func activateEpskc(lifetime: Duration, readingFirst: Bool) async -> (TelemetryResult?, Result<EphemeralKey, RouterCallError>) {
        if readingFirst {
            // The read and the activation leave together; the agent answers the read first, so it sees the
            // counters before the key, one round trip sooner.
            let (read, key) = await agent.activateEphemeralKeyMode(lifetime: lifetime, readingFirst: .borderAgentTelemetry)
            return (telemetryResult(read), key.mapError(Self.error))
        }
        do { return (nil, .success(try await agent.activateEphemeralKeyMode(lifetime: lifetime))) } catch {
            return (nil, .failure(Self.error(error)))
        }
    }

    package func deactivateEpskc(retainActiveSession: Bool, readingFirst: Bool) async -> (TelemetryResult?, Result<Void, RouterCallError>) {
        if readingFirst {
            let (read, done) = await agent.deactivateEphemeralKeyMode(
                retainActiveSession: retainActiveSession, readingFirst: .borderAgentTelemetry)
            return (telemetryResult(read), done.mapError(Self.error))
        }
        do { return (nil, .success(try await agent.deactivateEphemeralKeyMode(retainActiveSession: retainActiveSession))) } catch {
            return (nil, .failure(Self.error(error)))
        }
    }

    /// Reads `TelemetryData` (which consumes the agent's completed journeys: only this router's driver
    /// reads it, and only while a key is active or one is being activated).
    package func readEpskcEvidence() async -> TelemetryResult {
        do { return telemetryResult(.success(try await agent.read(.borderAgentTelemetry))) } catch {
            return telemetryResult(.failure(error))
        }
    }

    /// What a `TelemetryData` read means to the machine: a reading, an agent without the API, or a failure.
    private func telemetryResult(_ read: Result<BorderAgentTelemetry, AgentError>) -> TelemetryResult {
        switch read {
        case .success(let t):
            return .read(TelemetryReading(counters: t.counters, journeys: t.journeys))
        case .failure(let error) where Self.isMissing(error) || error.openThreadError == .notImplemented:
            return .unavailable
        case .failure(let error):
            logger.debug("could not read TelemetryData", [("agent", address), ("error", error.description)])
            return .failed
        }
    }

    package func keyIsActive() async -> Bool? { nil }

    package func attachAllNodes(to tlvs: [UInt8], delay: Duration) async throws(RouterCallError) -> Duration {
        try await call { () throws(AgentError) in try await agent.attachAllNodes(to: tlvs) }
    }

    /// `Join`; if the agent answers `InvalidState` (its host "Thread enabled" state is off, as after a
    /// start), `SetThreadEnabled(true)` and `Join` again.
    package func join(_ tlvs: [UInt8]) async throws(RouterCallError) {
        try await call { () throws(AgentError) in
            do throws(AgentError) {
                try await agent.join(tlvs)
            } catch where error.openThreadError == .invalidState {
                try await agent.setThreadEnabled(true)
                try await agent.join(tlvs)
            }
        }
    }

    package func leaveNetwork(timeout: Duration) async throws(RouterCallError) {
        try await call { () throws(AgentError) in try await agent.leaveNetwork(timeout: timeout) }
    }

    /// `DeviceRole` and `ActiveDatasetTlvs` signals (the agent signals nothing else of use here), until the
    /// task is cancelled or the connection closes; the subscription survives agent restarts. Presence comes
    /// from the service's discovery of bus names.
    package func observations() async -> AsyncStream<RouterObservation> {
        // Role and dataset are state: a reader behind keeps the newest 16 observations.
        let (stream, continuation) = AsyncStream.makeStream(of: RouterObservation.self, bufferingPolicy: .bufferingNewest(16))
        let changes: AgentEventStream<PropertyChange>
        do { changes = try await agent.propertyChanges() } catch {
            logger.info("could not follow the router's signals", [("agent", address), ("error", error.description)])
            continuation.finish()
            return stream
        }
        let task = Task { [logger, address] in
            do {
                for try await change in changes {
                    switch (change.name, change.value) {
                    case ("DeviceRole", .string(let role)): continuation.yield(.role(DeviceRole(wireName: role)))
                    case ("ActiveDatasetTlvs", .bytes(let tlvs)): continuation.yield(.activeDataset(tlvs))
                    default: break
                    }
                }
            } catch {
                logger.debug("the router's signals ended", [("agent", address), ("error", "\(error)")])
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The agent's tables over D-Bus (its own neighbours and children, the network data), widened by its
    /// REST API's network diagnostics when one is configured and answers as this agent; otherwise the
    /// topology says where its view ends and why.
    package func meshTopology(wholeMesh: Bool) async throws(RouterCallError) -> MeshTopology {
        let tables = try await call { () throws(AgentError) in try await agent.readMeshTables() }
        var topology = MeshTopology(tables: tables)
        let ownView = "the agent's own neighbours and children (over D-Bus, a child of another router is not listed)"
        guard wholeMesh else {
            topology.horizon = ownView
            return topology
        }
        guard let rest else {
            topology.horizon = ownView + ": no REST API is configured for \(agent.interfaceName) (agent-rest in tbrd.conf)"
            return topology
        }
        guard tables.role.isAttached else { return topology }
        do {
            let node = try await rest.node()
            guard node.extendedAddress.flatMap(ExtendedAddress.init) == tables.extAddress else {
                topology.horizon = ownView + ": the REST API at \(rest.base) is another agent's (its extended address is not \(tables.extAddress))"
                return topology
            }
            let diagnostics = try await rest.networkDiagnostics(timeout: RESTChannel.diagnosticsLimit)
            guard diagnostics.node(extAddress: tables.extAddress.rawValue) != nil else {
                topology.horizon = ownView + ": the network diagnostics of \(rest.base) did not list the router itself"
                return topology
            }
            return MeshTopology(tables: topology, widenedBy: MeshTopology(me: tables.extAddress, diagnostics: diagnostics))
        } catch {
            logger.debug("no network diagnostics from the agent's REST API", [("agent", agent.interfaceName.rawValue), ("error", "\(error)")])
            topology.horizon = ownView + ": otbr-agent's REST API at \(rest.base) did not answer (\(error.message))"
            return topology
        }
    }

    package func energyScan(duration: Duration) async throws(RouterCallError) -> [EnergyScanResult] {
        try await call { () throws(AgentError) in try await agent.energyScan(duration: duration) }
    }

    package func supportedChannelMask() async throws(RouterCallError) -> UInt32 {
        try await call { () throws(AgentError) in try await agent.read(.linkSupportedChannelMask) }
    }

    package func healthReadings() async -> RouterHealth {
        async let rcp = reading(.otRcpVersion)
        async let multiAil = reading(.multiAilDetected)
        async let cca = reading(.ccaFailureRate)
        async let nat64 = reading(.nat64State)
        async let infra = reading(.infraLinkInfo)
        let link = await infra
        let name: Reading<String> =
            switch link {
            case .value(let info): .value(info.name)
            case .unsupported(let why): .unsupported(why)
            case .failed(let why): .failed(why)
            }
        return RouterHealth(
            rcpVersion: await rcp, multiAilDetected: await multiAil, ccaFailureRate: await cca, nat64: await nat64, infraInterface: name)
    }

    private func reading<V: Sendable>(_ property: AgentProperty<V>) async -> Reading<V> {
        do { return .value(try await agent.read(property)) } catch {
            if Self.isMissing(error) || error.openThreadError == .notImplemented {
                return .unsupported("\(agentName) does not have \(property.name) (\(error.reason))")
            }
            return .failed(error.description)
        }
    }

    // MARK: errors

    private func call<T>(_ body: () async throws(AgentError) -> T) async throws(RouterCallError) -> T {
        do { return try await body() } catch { throw Self.error(error) }
    }

    /// The method or value does not exist on this agent: an NCP agent, a build without the feature, or a
    /// property getter that answers `NotFound`.
    package static func isMissing(_ error: AgentError) -> Bool {
        error.cause == .notSupported || error.openThreadError == .notFound
    }

    package static func error(_ error: AgentError) -> RouterCallError {
        RouterCallError(code: error.homeCode, reason: error.reason, description: error.description, isMissing: isMissing(error))
    }
}

extension BorderRouterAgent: PolicyControls {
    package func capabilities() async throws(AgentError) -> Capabilities { try await read(.capabilities) }
    package func infrastructureLinkName() async throws(AgentError) -> String { try await read(.infraLinkInfo).name }
    package func featureFlags() async throws(AgentError) -> FeatureFlagList { try await read(.featureFlags) }
    package func nat64State() async throws(AgentError) -> Nat64State { try await read(.nat64State) }
    package func updateFeatureFlags(_ change: (inout FeatureFlagList) -> Void) async throws(AgentError) {
        _ = try await updateFeatureFlags(change) as FeatureFlagList
    }
}
