import DBus
import DeviceModel
import MeshCoP
import OpenThreadBR

/// The router's presence on the bus and what it says about itself.
extension ManagedRouter {
    /// The agent owns its name as `owner`. A new instance ends any ePSKc key of the previous one (keys
    /// live in the agent's memory) and is probed afresh; the same instance again changes nothing.
    func agentAppeared(owner: String) async {
        if owner == agentInstance, isOnline { return }
        agentInstance = owner
        summaryCell.update {
            $0.isOnline = true
            $0.agentInstance = owner
        }
        logger.info("otbr-agent is on the bus", [("router", deviceID.rawValue), ("instance", owner)])
        registryEvents.publish(.online(deviceID))
        await serialized { await self.perform(self.machine.agentAppeared(instance: owner, now: self.clock.now())) }
        await refresh()
    }

    /// The agent left the bus. A stale report (the name has an owner again, the one already known) is
    /// ignored; otherwise the router is marked offline, never forgotten, and an open ePSKc session ends.
    func agentVanished() async {
        let current = try? await agent.connection.nameOwner(of: agent.busName)
        if let current, current == agentInstance { return }
        if current == nil, agentInstance == nil, !isOnline { return }  // already offline
        agentInstance = nil
        summaryCell.update {
            $0.isOnline = false
            $0.agentInstance = nil
        }
        logger.info("otbr-agent left the bus", [("router", deviceID.rawValue)])
        registryEvents.publish(.offline(deviceID))
        await serialized { await self.perform(self.machine.agentVanished(now: self.clock.now())) }
        if let current { await agentAppeared(owner: current) }
    }

    /// Reads what the router says about itself and updates the observable state: role, Border Agent ID,
    /// version, network, ePSKc support, capabilities and names. Failures keep what was known.
    func refresh() async {
        guard agentInstance != nil else { return }
        var support = supportCell.value
        do {
            let (role, version, id, xa) = try await agent.read(.deviceRole, .otbrVersion, .borderAgentID, .extendedAddress)
            summaryCell.update {
                $0.role = role
                $0.borderAgentID = id
                $0.extendedAddress = xa
            }
            basicCell.update { $0.softwareVersion = version }
            support.networkManagement = true
            support.wholeNetworkMigration = true
        } catch where error.cause == .notSupported {
            // An NCP agent has no GetProperties (nor AttachAllNodesTo); it still joins and leaves.
            support.networkManagement = true
            support.wholeNetworkMigration = false
            if let role = try? await agent.deviceRole() { summaryCell.update { $0.role = role } }
        } catch {
            logger.debug("could not read the router's state", [("router", deviceID.rawValue), ("error", error.description)])
        }
        do {
            networkCell.set(try await agent.activeDataset().flatMap { ThreadNetworkManagementTrait.NetworkInfo(dataset: $0) })
        } catch {
            logger.debug("could not read the active dataset", [("router", deviceID.rawValue), ("error", error.description)])
        }
        _ = try? await readCapabilities(into: &support)
        supportCell.set(support)
        await refreshNames()
    }

    /// Reads `EphemeralKeyEnabled` and `Capabilities` into the capabilities and `support`.
    /// - Throws: ``AgentError`` when the agent cannot be reached.
    func readCapabilities(into support: inout BorderRouterSupport) async throws(AgentError) {
        var caps = capabilitiesCell.value
        do {
            caps.epskcSupported = try await agent.read(.ephemeralKeyEnabled)
        } catch where error.openThreadError == .notFound || error.cause == .notSupported {
            caps.epskcSupported = false  // built without OTBR_ENABLE_EPSKC
        }
        do {
            let built = try await agent.read(.capabilities)
            caps.internetAccessOption = .init(nat64: built.supportsNat64, dhcpv6PrefixDelegation: built.supportsDhcp6PD)
            support.internetAccessCapabilities = true
        } catch where error.openThreadError == .notFound || error.cause == .notSupported {
            caps.internetAccessOption = .unspecified  // an agent from before the Capabilities property
            support.internetAccessCapabilities = false
        }
        support.epskc = caps.epskcSupported
        capabilitiesCell.set(caps)
    }

    /// Basic information: names from configuration, else advertised; ids from configuration only.
    private func refreshNames() async {
        let advertised = await advertisedNames?.advertisedNames(of: interfaceName)
        let configuration = self.configuration
        basicCell.update {
            $0.vendorName = configuration.vendorName ?? advertised?.vendorName ?? $0.vendorName
            $0.productName = configuration.productName ?? advertised?.productName ?? $0.productName
            $0.vendorID = configuration.vendorID
            $0.productID = configuration.productID
        }
    }

    /// Follows `DeviceRole` and `ActiveDatasetTlvs` signals (the agent signals nothing else of use here)
    /// until the task is cancelled or the connection closes. The subscription survives agent restarts.
    func followProperties() async {
        let changes: AgentEventStream<PropertyChange>
        do { changes = try await agent.propertyChanges() } catch {
            logger.info("could not follow the router's signals", [("router", deviceID.rawValue), ("error", error.description)])
            return
        }
        do {
            for try await change in changes {
                switch (change.name, change.value) {
                case ("DeviceRole", .string(let role)):
                    summaryCell.update { $0.role = DeviceRole(wireName: role) }
                case ("ActiveDatasetTlvs", .bytes(let tlvs)):
                    networkCell.set((try? OperationalDataset(bytes: tlvs)).flatMap { .init(dataset: $0) })
                default:
                    break
                }
            }
        } catch {
            logger.debug("the router's signals ended", [("router", deviceID.rawValue), ("error", "\(error)")])
        }
    }

    /// Fails unless the agent is on the bus.
    func requireOnline(_ what: String) throws(HomeError) {
        guard agentInstance != nil else {
            throw HomeError(.unavailable, "\(what) on \(deviceID) failed: the border router is offline (otbr-agent for \(interfaceName) is not running)")
        }
    }

    // MARK: BorderRouterBackend reads

    func capabilities() async throws(HomeError) -> ThreadNetworkCapabilitiesTrait.Attributes {
        try requireOnline("reading the capabilities")
        var support = supportCell.value
        do { try await readCapabilities(into: &support) } catch { throw error.homeError("reading the capabilities", on: deviceID) }
        supportCell.set(support)
        return capabilitiesCell.value
    }

    func networkInfo() async throws(HomeError) -> ThreadNetworkManagementTrait.NetworkInfo? {
        try requireOnline("reading the network")
        do {
            let info = try await agent.activeDataset().flatMap { ThreadNetworkManagementTrait.NetworkInfo(dataset: $0) }
            networkCell.set(info)
            return info
        } catch {
            throw error.homeError("reading the network", on: deviceID)
        }
    }

    func basicInformation() async throws(HomeError) -> BasicInformationTrait.Attributes {
        if agentInstance != nil {
            if let version = try? await agent.read(.otbrVersion) { basicCell.update { $0.softwareVersion = version } }
            await refreshNames()
        } else if basicCell.value == .unknown {
            try requireOnline("reading the basic information")
        }
        return basicCell.value
    }
}
