package import DeviceModel
package import MeshCoP
package import OpenThreadBR
package import OpenThreadREST
package import TBRFoundation

/// A border router's otbr-agent on another host, through its REST API (``OpenThreadREST/RESTAgent``;
/// what a real agent answers: `../shared/otbr/rest.md`).
///
/// REST has no signals: presence, role, the active dataset and keys started by someone else are learnt
/// by polling every ``RESTTiming/pollInterval``; a key's end is learnt from its state
/// (``RESTKeyEvidence``), read every ePSKc poll while a session is open. REST cannot tell the agent's
/// capabilities or version; those calls answer ``RouterCallError/isMissing``.
package actor RESTChannel: RouterChannel {
    /// otbr-agent's REST API cannot switch NAT64 or DHCPv6-PD.
    package nonisolated var policyControls: (any PolicyControls)? { nil }
    package nonisolated let rest: RESTAgent
    package nonisolated let timing: RESTTiming
    package let clock: any TBRClock
    package let logger: Logger
    private var evidence = RESTKeyEvidence()

    package init(rest: RESTAgent, timing: RESTTiming, clock: any TBRClock, logger: Logger) {
        self.rest = rest
        self.timing = timing
        self.clock = clock
        self.logger = logger
    }

    package nonisolated var transport: RouterTransport { .rest }
    package nonisolated var address: String { rest.base.description }
    package nonisolated var agentName: String { "otbr-agent at \(rest.base)" }
    /// The instance token of an agent that answers: REST cannot tell one run of the agent from the next.
    package nonisolated var instanceToken: String { "rest:" + rest.base.description }

    package func currentInstance() async -> String? {
        (try? await rest.role()) == nil ? nil : instanceToken
    }

    package func readIdentity() async throws(RouterCallError) -> RouterIdentity {
        let node = try await call("GET /node") { () throws(RESTAgentError) in try await rest.node() }
        return RouterIdentity(
            role: node.role, borderAgentID: node.borderAgentID, extendedAddress: node.extendedAddress.flatMap(ExtendedAddress.init),
            softwareVersion: nil, wholeNetworkMigration: true)
    }

    package func deviceRole() async throws(RouterCallError) -> DeviceRole {
        try await call("GET /node/state") { () throws(RESTAgentError) in try await rest.role() }
    }

    package func activeDataset() async throws(RouterCallError) -> OperationalDataset? {
        guard let tlvs = try await datasetTLVs(pending: false) else { return nil }
        do { return try OperationalDataset(bytes: tlvs) } catch {
            throw RouterCallError(
                code: .failed, reason: "\(agentName) holds an active dataset that does not decode: \(error)",
                description: "GET /node/dataset/active on \(rest.base) failed: the dataset does not decode: \(error)")
        }
    }

    package func datasetTLVs(pending: Bool) async throws(RouterCallError) -> [UInt8]? {
        let tlvs = try await call("GET /node/dataset/\(pending ? "pending" : "active")") { () throws(RESTAgentError) in
            try await rest.dataset(pending: pending)
        }
        return tlvs?.isEmpty == false ? tlvs : nil
    }

    package func epskcEnabled() async throws(RouterCallError) -> Bool {
        try await call("GET /node/ba-epskc/state") { () throws(RESTAgentError) in try await rest.epskcEnabled() }
    }

    package func internetAccess() async throws(RouterCallError) -> ThreadNetworkCapabilitiesTrait.InternetAccessOption {
        throw missing("reading the capabilities", "otbr-agent's REST API does not say which internet access the agent gives")
    }

    package func softwareVersion() async throws(RouterCallError) -> String {
        throw missing("reading the version", "otbr-agent's REST API does not say the agent's version")
    }

    package func activateEpskc(lifetime: Duration, readingFirst: Bool) async -> (TelemetryResult?, Result<EphemeralKey, RouterCallError>) {
        let read = readingFirst ? await readEpskcEvidence() : nil
        do {
            let grant = try await rest.startEpskc(lifetime: lifetime)
            return (read, .success(grant.key))
        } catch {
            var failure = Self.error(error, "POST /node/ba-epskc/key", agentName: agentName, base: rest.base.description)
            if error.status == 409 {
                // 409 means a key is active, or the feature is off: the state says which.
                let off = (try? await rest.epskcState())?.state == .disabled
                failure.code = off ? .notSupported : .busy
                failure.reason = off ? "the ePSKc feature of \(agentName) is switched off" : "\(agentName) already has an active key"
            }
            return (read, .failure(failure))
        }
    }

    package func deactivateEpskc(retainActiveSession: Bool, readingFirst: Bool) async -> (TelemetryResult?, Result<Void, RouterCallError>) {
        var read: TelemetryResult?
        if readingFirst || retainActiveSession {
            // REST deletes a key whatever its state; a commissioner that is connected keeps its session only
            // if the key is left alone, and the key then ends when the session does.
            let state = await readKeyState()
            read = state.result
            if retainActiveSession, let s = state.read?.state, s == .connected || s == .accepted { return (read, .success(())) }
            if !readingFirst { read = nil }
        }
        do {
            try await rest.stopEpskc()
            return (read, .success(()))
        } catch {
            return (read, .failure(Self.error(error, "DELETE /node/ba-epskc/key", agentName: agentName, base: rest.base.description)))
        }
    }

    package func readEpskcEvidence() async -> TelemetryResult { await readKeyState().result }

    package func keyIsActive() async -> Bool? {
        guard let read = try? await rest.epskcState() else { return nil }
        evidence.note(read)
        return [.started, .connected, .accepted].contains(read.state)
    }

    /// One read of the key's state, and what it means to the machine.
    private func readKeyState() async -> (read: RESTEpskcKeyState?, result: TelemetryResult) {
        do {
            let state = try await rest.epskcState()
            return (state, .read(evidence.reading(after: state)))
        } catch where error.status == 404 {
            return (nil, .unavailable)  // built without ePSKc
        } catch {
            logger.debug("could not read the ePSKc key state", [("agent", address), ("error", error.message)])
            return (nil, .failed)
        }
    }

    /// The requested dataset with a Pending Timestamp of now and a Delay Timer of `delay` (joinNetwork
    /// gives the 300 s otbr-agent's `AttachAllNodesTo` gives), written as the pending dataset: the leader
    /// moves the whole mesh when the delay runs out.
    package func attachAllNodes(to tlvs: [UInt8], delay: Duration) async throws(RouterCallError) -> Duration {
        var dataset: OperationalDataset
        do { dataset = try OperationalDataset(bytes: tlvs) } catch {
            throw RouterCallError(code: .invalidArgument, reason: "the dataset does not decode: \(error)", description: "\(error)")
        }
        let now = clock.wallTime()
        let seconds = UInt64(max(0, now))
        dataset.pendingTimestamp = Timestamp(unixSeconds: seconds, nanoseconds: UInt32((now - Double(seconds)) * 1e9))
        let ms = delay.wholeMilliseconds ?? .max
        dataset.delayTimer = DelayTimer(milliseconds: ms)
        let pending = dataset.encoded()
        _ = try await call("PUT /node/dataset/pending") { () throws(RESTAgentError) in try await rest.setDataset(pending, pending: true) }
        return .milliseconds(Int64(ms))
    }

    /// Thread off (an active dataset can only be written while it is), the active dataset, Thread on; then
    /// waits for the router to attach, reading its state every second, at most ``RESTTiming/networkTimeout``.
    package func join(_ tlvs: [UInt8]) async throws(RouterCallError) {
        if try await deviceRole() != .disabled {
            try await call("PUT /node/state") { () throws(RESTAgentError) in try await rest.setThreadEnabled(false) }
        }
        _ = try await call("PUT /node/dataset/active") { () throws(RESTAgentError) in try await rest.setDataset(tlvs, pending: false) }
        try await call("PUT /node/state") { () throws(RESTAgentError) in try await rest.setThreadEnabled(true) }
        let deadline = clock.now().advanced(by: timing.networkTimeout)
        while try await deviceRole().isAttached == false {
            guard clock.now() < deadline else {
                throw RouterCallError(
                    code: .unavailable, reason: "\(agentName) did not attach to the network within \(timing.networkTimeout)",
                    description: "joining on \(rest.base) failed: no attach within \(timing.networkTimeout)")
            }
            do { try await clock.sleep(for: .seconds(1)) } catch {
                throw RouterCallError(code: .failed, reason: "the call was cancelled", description: "joining on \(rest.base) was cancelled")
            }
        }
    }

    /// Thread off, then `DELETE /node`: the agent erases all its Thread data (a factory reset of its
    /// network settings); it does not restart.
    package func leaveNetwork(timeout: Duration) async throws(RouterCallError) {
        try await call("PUT /node/state") { () throws(RESTAgentError) in try await rest.setThreadEnabled(false) }
        try await call("DELETE /node") { () throws(RESTAgentError) in try await rest.eraseNode() }
    }

    /// Polls the agent every ``RESTTiming/pollInterval``: its role (which is its presence: an agent that
    /// does not answer is offline), its active dataset, and whether a key is active.
    package func observations() async -> AsyncStream<RouterObservation> {
        // At most four observations a poll, all state: a reader behind keeps the newest 16.
        let (stream, continuation) = AsyncStream.makeStream(of: RouterObservation.self, bufferingPolicy: .bufferingNewest(16))
        let task = Task { [rest, timing, clock, instanceToken] in
            var wasOnline: Bool?
            while !Task.isCancelled {
                let role = try? await rest.role()
                let online = role != nil
                if online != wasOnline { continuation.yield(.presence(online ? .running(owner: instanceToken) : .notRunning)) }
                wasOnline = online
                if let role {
                    continuation.yield(.role(role))
                    if let tlvs = try? await rest.dataset(pending: false) { continuation.yield(.activeDataset(tlvs)) }
                    if let key = try? await rest.epskcState(), [.started, .connected, .accepted].contains(key.state) {
                        continuation.yield(.keyActive)
                    }
                }
                do { try await clock.sleep(for: timing.pollInterval) } catch { break }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// How long the network diagnostics of ``meshTopology()`` may take: what is left of the service's 5 s
    /// after `GET /node`.
    package static let diagnosticsLimit: Duration = .milliseconds(3500)

    /// The mesh from network diagnostics (every router that answers and the children each lists, two hops
    /// and more); the router itself from `GET /node` alone when the agent has no diagnostics (an older
    /// agent without the `/api/` collections) or they do not end in time.
    package func meshTopology(wholeMesh: Bool) async throws(RouterCallError) -> MeshTopology {
        let node = try await call("GET /node") { () throws(RESTAgentError) in try await rest.node() }
        guard let address = node.extendedAddress.flatMap(ExtendedAddress.init) else {
            throw RouterCallError(
                code: .failed, reason: "\(agentName) did not say its extended address",
                description: "GET /node on \(rest.base) failed: no extAddress")
        }
        if wholeMesh, node.role.isAttached {
            do {
                let diagnostics = try await rest.networkDiagnostics(timeout: Self.diagnosticsLimit)
                if diagnostics.node(extAddress: address.rawValue) != nil { return MeshTopology(me: address, diagnostics: diagnostics) }
                logger.debug("network diagnostics did not list the router itself", [("agent", address.description)])
            } catch {
                logger.debug("no network diagnostics; the mesh is the router alone", [("agent", rest.base.description), ("error", "\(error)")])
            }
        }
        let rloc16 = node.rloc16.flatMap { UInt16($0.dropFirst(2), radix: 16) } ?? 0xFFFE
        let tables = MeshTables(
            role: node.role, extAddress: address, rloc16: rloc16, leaderData: nil, neighbors: [], children: [],
            onMeshPrefixes: [], externalRoutes: [])
        var topology = MeshTopology(tables: tables)
        topology.horizon =
            wholeMesh
            ? "the router alone: its agent's network diagnostics did not answer (see tbrd's log at debug level)"
            : "the router alone: network diagnostics are read only when the mesh is asked for"
        return topology
    }

    package func energyScan(duration: Duration) async throws(RouterCallError) -> [EnergyScanResult] {
        throw missing("an energy scan", "otbr-agent's REST API has no energy scan")
    }

    package func supportedChannelMask() async throws(RouterCallError) -> UInt32 {
        throw missing("reading the supported channels", "otbr-agent's REST API does not say which channels the radio supports")
    }

    package nonisolated func healthReadings() async -> RouterHealth {
        .none("otbr-agent's REST API does not report it")
    }

    // MARK: errors

    private func call<T>(_ operation: String, _ body: () async throws(RESTAgentError) -> T) async throws(RouterCallError) -> T {
        do { return try await body() } catch { throw Self.error(error, operation, agentName: agentName, base: rest.base.description) }
    }

    private func missing(_ what: String, _ why: String) -> RouterCallError {
        RouterCallError(code: .notSupported, reason: why, description: "\(what) on \(rest.base) failed: \(why)", isMissing: true)
    }

    /// A REST failure as a router call error: 409 is "not in this state", 400 a bad request, 404 an
    /// endpoint this agent lacks (a build without the feature); nothing answering is `unavailable`.
    package static func error(_ error: RESTAgentError, _ operation: String, agentName: String, base: String) -> RouterCallError {
        let code: HomeError.Code
        var missing = false
        switch error.kind {
        case .unreachable, .timedOut: code = .unavailable
        case .refused:
            switch error.status {
            case 409: code = .invalidState
            case 400: code = .invalidArgument
            case 404:
                code = .notSupported
                missing = true
            default: code = .failed
            }
        case .notAnAgent, .invalidResponse, .cancelled: code = .failed
        }
        return RouterCallError(code: code, reason: error.message, description: "\(operation) on \(base) failed: \(error.message)", isMissing: missing)
    }
}

/// How often and how long tbrd waits on REST agents (`rest-poll-interval`, `rest-timeout`).
public struct RESTTiming: Sendable, Hashable {
    /// How often each REST router is polled for its presence, role, dataset and keys (default 5 s).
    public var pollInterval: Duration
    /// How long a join may take to attach (default 120 s).
    public var networkTimeout: Duration
    /// The Delay Timer of a whole-mesh move (`AttachAllNodesTo`'s 300 s).
    package static let migrationDelayMs: UInt32 = 300_000

    /// Timing as given.
    public init(pollInterval: Duration = .seconds(5), networkTimeout: Duration = .seconds(120)) {
        self.pollInterval = pollInterval
        self.networkTimeout = networkTimeout
    }
}
