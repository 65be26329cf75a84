import TBRFoundation

/// What a command answers: its result, and the events the server signals right after it (the real
/// server signals most events with `loop.call_soon`, so a command that returns without awaiting again
/// queues its result before them).
struct Reply: Sendable {
    var result: JSON
    var eventsAfter: [(name: String, data: JSON)] = []
}

/// One command of the API: reads its arguments and does its work on the server.
typealias CommandHandler = @Sendable (SimulatedMatterServer, CommandArguments) async throws(CommandError) -> Reply

/// Dispatching the commands a client sends.
extension SimulatedMatterServer {
    /// The commands of python-matter-server's API that are simulated, and the controls for tests
    /// (`sim_…`, which no real server has). Others (`set_acl_entry`, `device_command`, `discover`,
    /// `update_node`, …) are answered as unknown commands (error 9).
    static let handlers: [String: CommandHandler] = [
        "server_info": { s, _ in await Reply(result: s.info) },
        "diagnostics": { s, _ in await s.diagnostics() },
        "get_nodes": { s, a throws(CommandError) in try await s.getNodes(a) },
        "get_node": { s, a throws(CommandError) in try await s.getNode(a) },
        "set_thread_dataset": { s, a throws(CommandError) in try await s.setThreadDataset(a) },
        "set_wifi_credentials": { s, a throws(CommandError) in try await s.setWiFiCredentials(a) },
        "commission_with_code": { s, a throws(CommandError) in try await s.commissionWithCode(a) },
        "commission_on_network": { s, a throws(CommandError) in try await s.commissionOnNetwork(a) },
        "interview_node": { s, a throws(CommandError) in try await s.interviewNode(a) },
        "read_attribute": { s, a throws(CommandError) in try await s.readAttribute(a) },
        "write_attribute": { s, a throws(CommandError) in try await s.writeAttribute(a) },
        "remove_node": { s, a throws(CommandError) in try await s.removeNode(a) },
        "ping_node": { s, a throws(CommandError) in try await s.pingNode(a) },
        "get_node_ip_addresses": { s, a throws(CommandError) in try await s.nodeAddresses(a) },
        "open_commissioning_window": { s, a throws(CommandError) in try await s.openCommissioningWindow(a) },
        "sim_set_available": { s, a throws(CommandError) in try await s.setAvailable(a) },
        "sim_set_thread_parent": { s, a throws(CommandError) in try await s.setThreadParent(a) },
    ]

    /// Handles one message from `client` as the real client handler does: `start_listening` and
    /// unknown commands at once; any other command in a job of its own, answered when it finishes
    /// (on `outbox`, even if the client has gone by then).
    /// - Returns: false when the connection is to be closed (a second `start_listening`, which trips
    ///   an assertion in the real server and ends the connection).
    func handle(_ message: CommandMessage, from client: UInt64, outbox: Outbox) async -> Bool {
        logger.debug("command", [("client", String(client)), ("command", message.commandText), ("message-id", message.messageID.serialized)])
        switch message.command {
        case "start_listening"?:
            guard listeners.insert(client).inserted else { return false }
            outbox.result(message.messageID, .array(orderedNodes.map(\.json)))
            return true
        case "sim_drop_connections"?:
            await dropConnections()
            return true
        default:
            break
        }
        guard let command = message.command, let handler = Self.handlers[command] else {
            outbox.error(message.messageID, .invalidCommand(message.commandText))
            return true
        }
        let id = message.messageID, arguments = message.arguments
        jobContinuation.yield { [self] in await self.execute(handler, arguments, id: id, outbox: outbox) }
        return true
    }

    /// Runs one command and answers it: the result, then the events it signals after it, with no
    /// suspension between them; or its error.
    private func execute(_ handler: CommandHandler, _ arguments: CommandArguments, id: JSON, outbox: Outbox) async {
        do throws(CommandError) {
            let reply = try await handler(self, arguments)
            outbox.result(id, reply.result)
            for event in reply.eventsAfter { broadcast(event.name, event.data) }
        } catch {
            outbox.error(id, error)
        }
    }

    /// `diagnostics`: `{"info", "nodes", "events"}` (no node events are simulated).
    func diagnostics() -> Reply {
        Reply(result: ["info": info, "nodes": .array(orderedNodes.map(\.json)), "events": []])
    }

    /// `set_thread_dataset(dataset: str)`: hex as Python's `bytes.fromhex` reads it; then
    /// `server_info_updated` (queued after the result).
    func setThreadDataset(_ a: CommandArguments) throws(CommandError) -> Reply {
        let dataset = try Python.fromhex(try a.string("dataset"))
        threadDataset = dataset
        return Reply(result: nil, eventsAfter: [("server_info_updated", info)])
    }

    /// `set_wifi_credentials(ssid: str, credentials: str)`: then `server_info_updated`.
    func setWiFiCredentials(_ a: CommandArguments) throws(CommandError) -> Reply {
        _ = try a.string("ssid")
        _ = try a.string("credentials")
        wifiCredentialsSet = true
        return Reply(result: nil, eventsAfter: [("server_info_updated", info)])
    }
}
