public import TBRFoundation
public import WebSocket

/// matter-sim's server: a ``SimulatedMatterServer`` behind a WebSocket server on `/ws`, one
/// ``ClientSession`` per connection. Usable in-process too:
/// ```swift
/// let simulator = try await MatterSimulator.start(configuration: configuration)
/// print(simulator.url)            // ws://127.0.0.1:5580/ws
/// await simulator.run()           // until the task is cancelled
/// ```
public final class MatterSimulator: Sendable {
    /// The simulated server's state and commands.
    public let server: SimulatedMatterServer
    private let websocket: WebSocketServer
    private let logger: Logger

    private init(server: SimulatedMatterServer, websocket: WebSocketServer, logger: Logger) {
        self.server = server
        self.websocket = websocket
        self.logger = logger
    }

    /// `ws://HOST:PORT/ws`, with the port actually listened on.
    public var url: WebSocketURL { websocket.url }

    /// The WebSocket side as python-matter-server's aiohttp has it: a heartbeat ping every 55 s that
    /// closes a client whose pong has not come within half of that (`WebSocketResponse(heartbeat=55)`),
    /// and messages of at most 4 MiB (aiohttp's default `max_msg_size`).
    static func websocketConfiguration(clock: any TBRClock) -> WebSocketServer.Configuration {
        WebSocketServer.Configuration(
            path: "/ws", limits: WebSocketLimits(maximumMessage: 4 << 20),
            keepalive: WebSocketKeepalive(interval: .seconds(55), timeout: .milliseconds(27_500), clock: clock), clock: clock)
    }

    /// Listens as `configuration` says.
    /// - Throws: ``WebSocketError/cannotListen(_:reason:)``.
    public static func start(
        configuration: MatterSimulatorConfiguration, clock: any TBRClock = SystemClock(), logger: Logger = .disabled
    ) async throws(WebSocketError) -> MatterSimulator {
        let websocket = try await WebSocketServer.listen(
            host: configuration.listenAddress, port: configuration.port, configuration: websocketConfiguration(clock: clock),
            logger: logger.child("websocket"))
        let server = SimulatedMatterServer(configuration: configuration, clock: clock, logger: logger)
        logger.info(
            "listening",
            [("url", websocket.url.description), ("devices", String(configuration.devices.count)), ("bluetooth", String(configuration.bluetooth))])
        return MatterSimulator(server: server, websocket: websocket, logger: logger)
    }

    /// Serves clients and runs their commands until the task is cancelled.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.server.run() }
            await websocket.run { connection in
                await ClientSession(server: self.server, connection: connection, logger: self.logger).run()
            }
        }
    }

    /// Stops as the real server stops: listeners hear `server_shutdown`, every client is sent what is
    /// queued for it and closed (waiting at most `grace` for that), and the listener closes. ``run()``
    /// then returns once its task is cancelled.
    public func shutDown(grace: Duration = .seconds(2), clock: any TBRClock = SystemClock()) async {
        await server.shutDown()
        _ = try? await TimeLimit.run(grace, clock: clock) { await self.server.waitUntilNoClients() }
        await websocket.close()
    }
}
