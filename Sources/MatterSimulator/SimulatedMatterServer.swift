public import TBRFoundation
import WebSocket

/// A simulated python-matter-server (8.1.2, schema 11): the state behind its WebSocket API and the
/// commands that change it, with the real server's messages, error codes and ordering of results
/// and events (docs/matter-sim.md says which of them were observed and which are inferred from its
/// source). ``MatterSimulator`` serves it over WebSocket; each connection is a ``ClientSession``.
///
/// Commands run as the real server runs them: `start_listening` and unknown commands are answered at
/// once, in order; every other command runs on its own (``run(_:)``'s task group), so that a slow one
/// does not hold up the next, and keeps running when its client goes away. Commissionings take their
/// turn one at a time, in the order they arrived, across all clients, and every attempt takes a new
/// node ID. Time comes from the injected clock.
public actor SimulatedMatterServer {
    let configuration: MatterSimulatorConfiguration
    let clock: any TBRClock
    let logger: Logger

    /// The dataset `set_thread_dataset` gave (the real server keeps only that one was set).
    var threadDataset: [UInt8]?
    var wifiCredentialsSet = false
    /// The nodes, and the order they were added (`get_nodes` lists them so, as a Python dict does).
    var nodes: [UInt64: SimulatedNode] = [:]
    var nodeOrder: [UInt64] = []
    /// The last node ID given out (the real server's `last_node_id`); the next attempt takes one more.
    var lastNodeID: UInt64 = 0
    /// The turn to commission.
    let line = FIFOGate()
    /// Every client connected, and the outboxes of those listening for events.
    var clients: [UInt64: (connection: WebSocketConnection, outbox: Outbox)] = [:]
    var listeners: Set<UInt64> = []
    var nextClientID: UInt64 = 0
    /// Who waits until no client is connected.
    var waitingForNoClients: [AsyncStream<Void>.Continuation] = []

    nonisolated let jobs: AsyncStream<@Sendable () async -> Void>
    nonisolated let jobContinuation: AsyncStream<@Sendable () async -> Void>.Continuation

    /// A server simulating `configuration`'s devices on `clock`.
    public init(configuration: MatterSimulatorConfiguration, clock: any TBRClock = SystemClock(), logger: Logger = .disabled) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        // Unbounded: one job per command a client sent and has not had answered, as python-matter-server
        // queues them; a simulator's clients are tests.
        (jobs, jobContinuation) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self, bufferingPolicy: .unbounded)
    }

    /// Runs the commands handed to it until the task is cancelled (each in a child task, so that
    /// cancelling this ends them all).
    public nonisolated func run() async {
        await withDiscardingTaskGroup { group in
            for await job in jobs {
                group.addTask { await job() }
            }
        }
    }

    /// The server's information (`ServerInfoMessage`), as sent on connect and by `server_info`.
    var info: JSON {
        [
            "fabric_id": JSON(configuration.fabricID),
            "compressed_fabric_id": JSON(configuration.compressedFabricID),
            "schema_version": .int(configuration.schemaVersion),
            "min_supported_schema_version": .int(configuration.minimumSchemaVersion),
            "sdk_version": .string(configuration.sdkVersion),
            "wifi_credentials_set": .bool(wifiCredentialsSet),
            "thread_credentials_set": .bool(threadDataset != nil),
            "bluetooth_enabled": .bool(configuration.bluetooth),
        ]
    }

    /// The nodes in the order they were added.
    var orderedNodes: [SimulatedNode] { nodeOrder.compactMap { nodes[$0] } }

    // MARK: clients and events

    /// A client connected: it is greeted with the server's information.
    func connect(_ connection: WebSocketConnection, outbox: Outbox) -> UInt64 {
        nextClientID += 1
        clients[nextClientID] = (connection, outbox)
        outbox.send(info)
        logger.debug("client connected", [("client", String(nextClientID)), ("peer", connection.peer)])
        return nextClientID
    }

    /// A client went away: it hears no more events.
    func disconnect(_ client: UInt64) {
        listeners.remove(client)
        clients[client] = nil
        logger.debug("client disconnected", [("client", String(client))])
        if clients.isEmpty {
            for c in waitingForNoClients { c.finish() }
            waitingForNoClients.removeAll()
        }
    }

    /// Returns once no client is connected (or the task is cancelled).
    nonisolated func waitUntilNoClients() async {
        for await _ in await noClientsSignal() {}
    }

    /// A stream that ends once no client is connected.
    private func noClientsSignal() -> AsyncStream<Void> {
        // Nothing is ever yielded: the stream only ends.
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(0))
        if clients.isEmpty { continuation.finish() } else { waitingForNoClients.append(continuation) }
        return stream
    }

    /// Sends `event` with `data` to every listening client (`{"event", "data"}`).
    func broadcast(_ event: String, _ data: JSON) {
        for client in listeners.sorted() { clients[client]?.outbox.send(["event": .string(event), "data": data]) }
    }

    /// Closes every client's TCP connection at once, without a close frame (`sim_drop_connections`).
    func dropConnections() async {
        let connections = clients.values.map(\.connection)
        logger.info("dropping every connection", [("clients", String(connections.count))])
        for connection in connections { await connection.abort() }
    }

    /// The server stops: listeners hear `server_shutdown` (as the real server signals it), then every
    /// client's queue is sent and its connection closed.
    public func shutDown() {
        broadcast("server_shutdown", nil)
        for client in clients.values { client.outbox.finish() }
    }

    // MARK: helpers for the commands

    /// The next node ID: every commissioning attempt takes one, whether it succeeds or not.
    func nextNodeID() -> UInt64 {
        lastNodeID += 1
        return lastNodeID
    }

    /// Waits `duration` on the clock.
    /// - Throws: ``CommandError`` when the server stops meanwhile.
    func pause(_ duration: Duration) async throws(CommandError) {
        do { try await clock.sleep(for: duration) } catch { throw .unknown("the server is stopping") }
    }
}
