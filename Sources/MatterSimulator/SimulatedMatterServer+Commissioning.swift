import MatterOnboarding
import TBRFoundation

/// Commissioning (`commission_with_code`, `commission_on_network`), as `device_controller.py` does
/// it: check Bluetooth, take a node ID, wait for the turn, commission, interview (the node is added:
/// `node_added`, not yet available), subscribe (available: `node_updated`), answer with the node.
extension SimulatedMatterServer {
    /// `commission_with_code(code: str, network_only: bool = False)`.
    ///
    /// Without Bluetooth a BLE commissioning (`network_only` false) fails at once with error 1
    /// "Bluetooth commissioning is not available." and takes no node ID (observed). Otherwise every
    /// failure is error 1 "Commission with code failed for node N." (observed for codes that do not
    /// parse; inferred for the rest from the source: the SDK's `ChipStackError` becomes that error).
    func commissionWithCode(_ a: CommandArguments) async throws(CommandError) -> Reply {
        let code = try a.string("code")
        let networkOnly = try a.bool("network_only", default: false)
        if !networkOnly, !configuration.bluetooth { throw .commissionFailed("Bluetooth commissioning is not available.") }
        let node = nextNodeID()
        logger.info("commissioning with a code", [("node", String(node)), ("network-only", String(networkOnly))])
        let failure = CommandError.commissionFailed("Commission with code failed for node \(node).")
        return try await inLine { () async throws(CommandError) -> Reply in
            guard let payload = try? SetupPayload(parsing: code) else { throw failure }
            let device = configuration.devices.isEmpty ? SimulatedDevice.implied(by: payload) : find(payload.discriminator)
            return try await commission(
                node, device: device, passcode: UInt64(payload.passcode.rawValue), overBLE: !networkOnly, failure: failure)
        }
    }

    /// `commission_on_network(setup_pin_code: int, filter_type: int = 0, filter: Any = None,
    /// ip_addr: str | None = None)`: the device is found on the IP network by its discovery filter
    /// (0 none, 1 short discriminator, 2 long discriminator, 3 vendor ID; others as none); an
    /// `ip_addr` finds the first device not yet commissioned. Failure: error 1 "Commissioning failed
    /// for node N.".
    func commissionOnNetwork(_ a: CommandArguments) async throws(CommandError) -> Reply {
        let pin = try a.integer("setup_pin_code")
        let filterType = try a.integer("filter_type", default: 0)
        let filter = a.any("filter").flatMap(IntegerArgument.init)?.nodeID
        _ = a.optionalString("ip_addr")
        let node = nextNodeID()
        logger.info("commissioning on the network", [("node", String(node))])
        let failure = CommandError.commissionFailed("Commissioning failed for node \(node).")
        return try await inLine { () async throws(CommandError) -> Reply in
            let device: SimulatedDevice?
            if configuration.devices.isEmpty {
                let discriminator = filterType.int64 == 2 ? UInt16(truncatingIfNeeded: filter ?? 0xF00) : 0xF00
                device = SimulatedDevice(discriminator: discriminator, passcode: UInt32(truncatingIfNeeded: pin.nodeID ?? 0))
            } else {
                device = configuration.devices.first { d in
                    guard d.isPresent, !isCommissioned(d) else { return false }
                    switch (filterType.int64, filter) {
                    case (1?, let f?): return UInt64(d.discriminator >> 8) == f
                    case (2?, let f?): return UInt64(d.discriminator) == f
                    case (3?, let f?): return UInt64(d.vendorID) == f
                    default: return true
                    }
                }
            }
            return try await commission(node, device: device, passcode: pin.nodeID ?? 0, overBLE: false, failure: failure)
        }
    }

    /// Runs `body` in the commissioning line's turn (first come, first served).
    /// - Throws: what `body` throws; `unknown` when the server stops while the call waits.
    private func inLine(_ body: () async throws(CommandError) -> Reply) async throws(CommandError) -> Reply {
        let result: Result<Reply, CommandError>
        do {
            result = try await line.withTurn { () async -> Result<Reply, CommandError> in
                do throws(CommandError) { return .success(try await body()) } catch { return .failure(error) }
            }
        } catch {
            throw .unknown("the server is stopping")
        }
        return try result.get()
    }

    /// The device with a discriminator (one not commissioned first), among those configured.
    func find(_ discriminator: Discriminator) -> SimulatedDevice? {
        let matching = configuration.devices.filter { $0.matches(discriminator) }
        return matching.first { !isCommissioned($0) } ?? matching.first
    }

    /// Whether `device` is a node of the fabric (its commissioning window is then closed: nobody finds it).
    func isCommissioned(_ device: SimulatedDevice) -> Bool { nodes.values.contains { $0.device == device } }

    /// The steps of one commissioning, each one step of the device long: discovery (three steps,
    /// standing for the real SDK's 30 s, before an absent device fails), PASE (a wrong passcode
    /// fails), over BLE the Thread network (no dataset: fails), the rest of commissioning, the
    /// interview (the node is added: `node_added` with `available` false), the subscription
    /// (`available` true: `node_updated`), then the node as the result.
    private func commission(
        _ node: UInt64, device: SimulatedDevice?, passcode: UInt64, overBLE: Bool, failure: CommandError
    ) async throws(CommandError) -> Reply {
        let step = device.map(configuration.step(of:)) ?? configuration.step
        guard let device, device.isPresent, !isCommissioned(device) else {
            try await pause(step * 3)
            logger.info("commissioning failed: no device answered", [("node", String(node))])
            throw failure
        }
        try await pause(step)
        guard passcode == UInt64(device.passcode) else {
            logger.info("commissioning failed: PASE (wrong passcode)", [("node", String(node))])
            throw failure
        }
        if overBLE, threadDataset == nil {
            try await pause(step)
            logger.info("commissioning failed: no Thread dataset to give the device", [("node", String(node))])
            throw failure
        }
        try await pause(step)
        try await pause(step)
        let now = clock.wallTime()
        let network = threadDataset.map(ThreadNetwork.init(dataset:)) ?? ThreadNetwork()
        var added = SimulatedNode(
            id: node, device: device, commissioned: now, lastInterview: now,
            attributes: NodeAttributes.make(device: device, node: node, fabricID: configuration.fabricID, network: network))
        nodes[node] = added
        nodeOrder.append(node)
        broadcast("node_added", added.json)
        try await pause(step)
        guard nodes[node] != nil else { throw .notInterviewed(String(node)) }
        added = nodes[node]!
        if added.reachable, !added.available {
            added.available = true
            nodes[node] = added
            broadcast("node_updated", added.json)
        }
        logger.info("commissioned", [("node", String(node))])
        return Reply(result: added.json)
    }
}
