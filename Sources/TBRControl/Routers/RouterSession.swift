import TBRDBusAPI
import BorderRouterService
import DBus
import OpenThreadBR

/// How a command reaches the border routers: it connects to the bus of `--bus`, and talks to tbrd
/// when tbrd owns `io.tbrd` there, otherwise to the otbr-agents directly through an in-process
/// ``BorderRouterService/BorderRouterService`` (ePSKc ends are then inferred in this process).
enum RouterSession {
    /// Runs `body` with the backend the bus offers, then closes the connection.
    /// - Throws: ``ControlError`` 69 when the bus cannot be reached, or when neither tbrd nor any
    ///   otbr-agent is on it; what `body` throws.
    static func withBackend<R: Sendable>(
        _ context: CommandContext, _ body: (any RouterBackend) async throws -> R
    ) async throws -> R {
        try await withConnection(context) { connection in
            // tbrd is tried first, without asking the bus whether it runs: its first call answering
            // ServiceUnknown says it does not, before anything was done (one round trip less per command).
            do { return try await body(TbrdBackend(connection: connection)) } catch is TbrdNotRunning {}
            let agents: [ThreadInterfaceName]
            do { agents = try await AgentDiscovery(connection: connection).agents() } catch {
                throw ErrorMapping.controlError(error, doing: "listing the otbr-agents on the \(context.bus) bus")
            }
            guard !agents.isEmpty else {
                throw ControlError.unavailable(
                    "neither tbrd nor any otbr-agent is on the \(context.bus) bus (no io.tbrd, no "
                        + "io.openthread.BorderRouter.* name); start tbrd or otbr-agent, or choose the bus with --bus")
            }
            context.note("tbrd is not running; talking to otbr-agent directly (ePSKc events are inferred by this process)")
            let service = BorderRouterService(connection: connection, configuration: DirectBackend.configuration)
            return try await service.withRunning { service in try await body(DirectBackend(service: service)) }
        }
    }

    /// Runs `body` with tbrd's API, for the commands that only tbrd can do (structures).
    /// - Throws: ``ControlError`` 69 saying how to start tbrd when it is not on the bus.
    static func withTbrd<R: Sendable>(
        _ context: CommandContext, for what: String, _ body: (TbrdBackend) async throws -> R
    ) async throws -> R {
        try await withConnection(context) { connection in
            do { return try await body(TbrdBackend(connection: connection)) } catch is TbrdNotRunning {
                throw ControlError.unavailable(
                    "\(what) needs tbrd, which is not running on the \(context.bus) bus; start it with "
                        + "'systemctl start tbrd' (or run 'tbrd --bus \(context.bus)')")
            }
        }
    }

    /// Whether tbrd owns its name on `connection`'s bus.
    static func tbrdIsRunning(on connection: Connection) async throws -> Bool {
        do { return try await connection.nameOwner(of: TBRDBusAPI.busName) != nil } catch {
            throw ErrorMapping.controlError(error, doing: "asking the bus whether tbrd is running")
        }
    }

    /// Connects to the bus of `--bus`, runs `body`, and closes the connection whatever happens.
    /// - Throws: ``ControlError`` 69 when the bus cannot be reached; what `body` throws.
    static func withConnection<R: Sendable>(
        _ context: CommandContext, _ body: (Connection) async throws -> R
    ) async throws -> R {
        let connection: Connection
        do { connection = try await Connection(bus: context.bus) } catch {
            let detail = error.message.isEmpty ? error.name.rawValue : error.message
            throw ControlError.unavailable(
                detail.hasPrefix("cannot connect") ? detail : "cannot connect to the \(context.bus) bus: \(detail)")
        }
        do {
            let result = try await body(connection)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }
}
