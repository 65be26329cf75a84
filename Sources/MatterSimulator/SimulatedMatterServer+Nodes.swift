import TBRFoundation

/// The commands on nodes, with the real server's checks and messages (`device_controller.py`).
extension SimulatedMatterServer {
    /// The node an argument names, if it exists (Python looks it up in a dict: `True` finds node 1).
    func node(_ id: IntegerArgument) -> SimulatedNode? { id.nodeID.flatMap { nodes[$0] } }

    /// The node an argument names, when it exists and is available; else error 3, as `read_attribute`,
    /// `write_attribute`, `device_command` and `open_commissioning_window` answer.
    func availableNode(_ id: IntegerArgument) throws(CommandError) -> SimulatedNode {
        guard let node = node(id), node.available else { throw .notReady(id.text) }
        return node
    }

    /// `get_nodes(only_available: bool = False)`.
    func getNodes(_ a: CommandArguments) throws(CommandError) -> Reply {
        let onlyAvailable = try a.bool("only_available", default: false)
        return Reply(result: .array(orderedNodes.filter { $0.available || !onlyAvailable }.map(\.json)))
    }

    /// `get_node(node_id: int)`: error 5 "Node N does not exist or is not yet interviewed" (observed).
    func getNode(_ a: CommandArguments) throws(CommandError) -> Reply {
        let id = try a.integer("node_id")
        guard let node = node(id) else { throw .notInterviewed(id.text) }
        return Reply(result: node.json)
    }

    /// `interview_node(node_id: int)`: reads the node again; the result, then `node_updated`. A node
    /// that is unknown or does not answer fails after the SDK gives up (observed for an unknown node:
    /// error 2 "Failed to interview node N" after 47 s; three steps here).
    func interviewNode(_ a: CommandArguments) async throws(CommandError) -> Reply {
        let id = try a.integer("node_id")
        guard let found = node(id), found.reachable else {
            try await pause(configuration.step * 3)
            throw .interviewFailed(id.text)
        }
        try await pause(configuration.step(of: found.device))
        guard var node = nodes[found.id] else { throw .interviewFailed(id.text) }
        node.lastInterview = clock.wallTime()
        nodes[node.id] = node
        return Reply(result: nil, eventsAfter: [("node_updated", node.json)])
    }

    /// `remove_node(node_id: int)`: the node leaves the server at once (`node_removed`, before the
    /// result), then the server asks the device to remove its fabric; a device that does not answer
    /// only makes that fail in the log, and the result is still `null` (inferred from the source).
    func removeNode(_ a: CommandArguments) async throws(CommandError) -> Reply {
        let id = try a.integer("node_id")
        guard let node = node(id) else { throw .notExisting(id.text) }
        nodes[node.id] = nil
        nodeOrder.removeAll { $0 == node.id }
        broadcast("node_removed", JSON(node.id))
        let step = configuration.step(of: node.device)
        try await pause(node.reachable ? step : step * 3)
        if !node.reachable {
            logger.info("removing the fabric from the device failed: it does not answer", [("node", String(node.id))])
        }
        return Reply(result: nil)
    }

    /// `ping_node(node_id: int, attempts: int = 1)`: `{address: answered}` for the node's address.
    func pingNode(_ a: CommandArguments) async throws(CommandError) -> Reply {
        let id = try a.integer("node_id")
        _ = try a.integer("attempts", default: 1)
        guard let node = node(id) else { throw .notInterviewed(id.text) }
        try await pause(configuration.step(of: node.device))
        return Reply(result: .object(JSONObject([(node.address, .bool(node.reachable))])))
    }

    /// `get_node_ip_addresses(node_id: int, prefer_cache: bool = False, scoped: bool = False)`.
    func nodeAddresses(_ a: CommandArguments) async throws(CommandError) -> Reply {
        let id = try a.integer("node_id")
        _ = try a.bool("prefer_cache", default: false)
        _ = try a.bool("scoped", default: false)
        guard let node = node(id) else { throw .notInterviewed(id.text) }
        try await pause(configuration.step(of: node.device))
        return Reply(result: node.reachable ? [.string(node.address)] : [])
    }

    /// `sim_set_available(node_id: int, available: bool)`, a control no real server has: the device
    /// stops (or starts again) answering. The real server marks a node whose subscription fails
    /// unavailable (`node_updated`) and available again when it resubscribes; so does this, at once.
    func setAvailable(_ a: CommandArguments) throws(CommandError) -> Reply {
        let id = try a.integer("node_id")
        let available = try a.bool("available", default: true)
        guard a.any("available") != nil else { throw .invalidArguments }
        guard var node = node(id) else { throw .notInterviewed(id.text) }
        node.reachable = available
        let changed = node.available != available
        node.available = available
        nodes[node.id] = node
        logger.info("simulated device reachability changed", [("node", String(node.id)), ("reachable", String(available))])
        if changed { broadcast("node_updated", node.json) }
        return Reply(result: nil)
    }

    /// `sim_set_thread_parent(node_id: int, ext_address: int, lqi: int = 255, average_rssi: int = -60)`, a
    /// control no real server has: the node's Thread Network Diagnostics NeighborTable (0/53/7) becomes one
    /// entry, its parent (IsChild false), as a sleepy end device reports it; the server keeps it as the
    /// node's last known attributes, also while the node is unavailable. Fields by tag, as the real server
    /// writes a struct (python-matter-server issue 579).
    func setThreadParent(_ a: CommandArguments) throws(CommandError) -> Reply {
        let id = try a.integer("node_id")
        guard let address = a.any("ext_address")?.uint64 else { throw .invalidArguments }
        guard let lqi = try a.integer("lqi", default: 255).value.int64, let rssi = try a.integer("average_rssi", default: -60).value.int64,
            (0...255).contains(lqi), (-128...127).contains(rssi)
        else { throw .invalidArguments }
        guard var node = node(id) else { throw .notInterviewed(id.text) }
        let entry: JSONObject = [
            "0": JSON(address), "1": 10, "2": 0x5000, "3": 0, "4": 0, "5": .int(lqi), "6": .int(rssi), "7": .int(rssi), "8": 0,
            "9": 0, "10": false, "11": false, "12": false, "13": false,
        ]
        node.attributes["0/53/7"] = .array([.object(entry)])
        nodes[node.id] = node
        return Reply(result: nil)
    }
}
