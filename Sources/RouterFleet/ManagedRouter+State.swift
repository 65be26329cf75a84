package import DeviceModel
import MeshCoP
import OpenThreadBR

/// The router's presence and what it says about itself.
extension ManagedRouter {
    /// The agent owns its name as `owner`. A new instance ends any ePSKc key of the previous one (keys
    /// live in the agent's memory) and is probed afresh; the same instance again changes nothing.
    package func agentAppeared(owner: String) async {
        if owner == agentInstance, isOnline { return }
        agentInstance = owner
        summaryCell.update {
            $0.isOnline = true
            $0.agentInstance = owner
        }
        logger.info("otbr-agent is running", [("router", deviceID.rawValue), ("agent", channel.address), ("instance", owner)])
        registryEvents.publish(.online(deviceID))
        await serialized { await self.perform(self.machine.agentAppeared(instance: owner, now: self.clock.now())) }
        await refresh()
    }

    /// The agent left the bus (or stopped answering). A stale report (the agent answers again, as the
    /// instance already known) is ignored; otherwise the router is marked offline, never forgotten, and
    /// an open ePSKc session ends.
    package func agentVanished() async {
        let current = await channel.currentInstance()
        if let current, current == agentInstance { return }
        if current == nil, agentInstance == nil, !isOnline { return }  // already offline
        agentInstance = nil
        summaryCell.update {
            $0.isOnline = false
            $0.agentInstance = nil
        }
        logger.info("otbr-agent is gone", [("router", deviceID.rawValue), ("agent", channel.address)])
        registryEvents.publish(.offline(deviceID))
        await serialized { await self.perform(self.machine.agentVanished(now: self.clock.now())) }
        if let current { await agentAppeared(owner: current) }
    }

    /// Reads what the router says about itself and updates the observable state: role, Border Agent ID,
    /// version, network, ePSKc support, capabilities and names. Failures keep what was known.
    package func refresh() async {
        guard agentInstance != nil else { return }
        var support = supportCell.value
        do {
            let identity = try await channel.readIdentity()
            summaryCell.update {
                $0.role = identity.role
                if let id = identity.borderAgentID { $0.borderAgentID = id }
                if let xa = identity.extendedAddress { $0.extendedAddress = xa }
            }
            if let version = identity.softwareVersion { basicCell.update { $0.softwareVersion = version } }
            support.networkManagement = true
            support.wholeNetworkMigration = identity.wholeNetworkMigration
        } catch {
            logger.debug("could not read the router's state", [("router", deviceID.rawValue), ("error", error.description)])
        }
        do {
            networkCell.set(try await channel.activeDataset().flatMap { ThreadNetworkManagementTrait.NetworkInfo(dataset: $0) })
        } catch {
            logger.debug("could not read the active dataset", [("router", deviceID.rawValue), ("error", error.description)])
        }
        _ = try? await readCapabilities(into: &support)
        supportCell.set(support)
        await refreshNames()
    }

    /// Reads whether ePSKc is on and which internet access the agent gives into the capabilities and
    /// `support`; what the agent cannot say is unsupported, not guessed.
    /// - Throws: ``RouterCallError`` when the agent cannot be reached.
    package func readCapabilities(into support: inout BorderRouterSupport) async throws(RouterCallError) {
        var caps = capabilitiesCell.value
        do {
            caps.epskcSupported = try await channel.epskcEnabled()
        } catch where error.isMissing {
            caps.epskcSupported = false  // built without OTBR_ENABLE_EPSKC
        }
        do {
            caps.internetAccessOption = try await channel.internetAccess()
            support.internetAccessCapabilities = true
        } catch where error.isMissing {
            caps.internetAccessOption = .unspecified  // an agent from before the Capabilities property, or REST
            support.internetAccessCapabilities = false
        }
        support.epskc = caps.epskcSupported
        capabilitiesCell.set(caps)
    }

    /// Basic information: names from configuration, else advertised; ids from configuration only.
    private func refreshNames() async {
        let advertised = await advertisedNames.advertisedNames(of: deviceID)
        let configuration = self.configuration
        basicCell.update {
            $0.vendorName = configuration.vendorName ?? advertised?.vendorName ?? $0.vendorName
            $0.productName = configuration.productName ?? advertised?.productName ?? $0.productName
            $0.vendorID = configuration.vendorID
            $0.productID = configuration.productID
        }
    }

    /// Follows what the agent tells unasked (role and active-dataset signals; through REST also its
    /// presence and keys someone else started, from polling) until the task is cancelled.
    package func followObservations() async {
        for await observation in await channel.observations() {
            switch observation {
            case .presence(let presence): presenceChanged(presence)
            case .role(let role): summaryCell.update { $0.role = role }
            case .activeDataset(let tlvs):
                networkCell.set(tlvs.flatMap { try? OperationalDataset(bytes: $0) }.flatMap { .init(dataset: $0) })
            case .keyActive: await epskcServiceAppeared(at: clock.now())
            }
        }
    }

    /// Fails unless the agent is on the bus.
    package func requireOnline(_ what: String) throws(HomeError) {
        guard agentInstance != nil else {
            throw HomeError(.unavailable, "\(what) on \(deviceID) failed: the border router is offline (\(channel.agentName) is not answering)")
        }
    }

    // MARK: BorderRouterBackend reads

    package func capabilities() async throws(HomeError) -> ThreadNetworkCapabilitiesTrait.Attributes {
        try requireOnline("reading the capabilities")
        var support = supportCell.value
        do { try await readCapabilities(into: &support) } catch { throw error.homeError("reading the capabilities", on: deviceID) }
        supportCell.set(support)
        return capabilitiesCell.value
    }

    package func networkInfo() async throws(HomeError) -> ThreadNetworkManagementTrait.NetworkInfo? {
        try requireOnline("reading the network")
        do {
            let info = try await channel.activeDataset().flatMap { ThreadNetworkManagementTrait.NetworkInfo(dataset: $0) }
            networkCell.set(info)
            return info
        } catch {
            throw error.homeError("reading the network", on: deviceID)
        }
    }

    package func basicInformation() async throws(HomeError) -> BasicInformationTrait.Attributes {
        if agentInstance != nil {
            if let version = try? await channel.softwareVersion() { basicCell.update { $0.softwareVersion = version } }
            await refreshNames()
        } else if basicCell.value == .unknown {
            try requireOnline("reading the basic information")
        }
        return basicCell.value
    }
}
