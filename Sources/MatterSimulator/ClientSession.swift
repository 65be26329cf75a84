import TBRFoundation
import WebSocket

/// One client's connection, handled as python-matter-server's `WebsocketClientHandler` handles it:
/// the server's information first, then each text message read as a command (binary messages are
/// ignored); everything the server says to the client goes through one ``Outbox`` written by one
/// writer, in order.
///
/// The connection ends when the client closes it; when it sends text the server cannot read as a
/// command, or a second `start_listening` (the server then closes it with status 1000 after sending
/// what was queued, and says nothing about why, as observed); when it lets more than 512 messages pile
/// up; or when the server stops. Commands still running when it ends keep running.
struct ClientSession: Sendable {
    let server: SimulatedMatterServer
    let connection: WebSocketConnection
    let logger: Logger

    /// Serves the connection until it ends.
    func run() async {
        let outbox = Outbox()
        let client = await server.connect(connection, outbox: outbox)
        await withDiscardingTaskGroup { group in
            group.addTask {
                // The writer: what is queued, then the close, as the real handler closes after its writer.
                await outbox.write(to: connection)
                await connection.close(code: 1000, reason: "")
            }
            group.addTask {
                for await _ in outbox.overflow {
                    logger.warning("a client let more than 512 messages pile up; disconnecting it", [("client", String(client))])
                    await connection.close(code: 1000, reason: "")
                }
            }
            await readCommands(from: client, outbox: outbox)
            await server.disconnect(client)
            outbox.finish()
        }
    }

    /// Reads and handles messages until the connection ends or must be closed.
    private func readCommands(from client: UInt64, outbox: Outbox) async {
        while true {
            let message: WebSocketMessage
            do {
                message = try await connection.receive()
            } catch {
                logger.debug("client connection ended", [("client", String(client)), ("why", error.description)])
                return
            }
            guard case .text(let text) = message else {
                logger.debug("ignoring a binary message, as the real server does", [("client", String(client))])
                continue
            }
            guard let command = CommandMessage(text: text) else {
                logger.info("a client sent a message that is not a command; closing its connection", [("client", String(client))])
                return
            }
            guard await server.handle(command, from: client, outbox: outbox) else {
                logger.info("a client sent start_listening twice; closing its connection", [("client", String(client))])
                return
            }
        }
    }
}
