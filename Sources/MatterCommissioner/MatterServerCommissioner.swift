import FoundationEssentials
public import MatterOnboarding
public import MeshCoP
public import TBRFoundation
public import WebSocket

/// python-matter-server (the Matter controller Home Assistant runs) as tbrd's commissioner, over its
/// WebSocket API (schema 11; `../shared/reference/matter-server.md`).
///
/// One connection, made when a call needs it and kept while it lasts; ``run()`` reads it (results,
/// errors, events after `start_listening`). Every command is bounded by its timeout. When the connection
/// goes away (the server stops, crashes or restarts) the calls waiting fail with `connectionLost`, and the
/// next call connects again. The server reports no progress while it commissions; this client reports
/// ``CommissionerProgress/nodeAdded(_:)`` and ``CommissionerProgress/interviewed(vendorID:productID:)``
/// from its `node_added` event (sent once the server has interviewed the new node) or, failing that,
/// from the command's result.
///
/// A commissioning this side gave up on (timed out) keeps running in the server, which cannot stop it;
/// if it later adds a node anyway, the node is removed from the fabric (`remove_node`), so that no node
/// tbrd does not record stays on it, and it is never taken for the node of the commissioning after it
/// (the server finishes the abandoned one first).
public actor MatterServerCommissioner: Commissioner {
    public nonisolated let backendName = "matter-server"
    /// Where the server listens (`ws://127.0.0.1:5580/ws` by default).
    public nonisolated let url: WebSocketURL
    let clock: any TBRClock
    let logger: Logger
    /// How long making a connection (TCP, handshake, the server's greeting) may take.
    let connectTimeout: Duration

    let executor = DispatchQueueExecutor(label: "tbrd.matter-server")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    var client: WebSocketClient?
    /// The server's information, as it last sent it.
    public internal(set) var serverInfo: JSONValue?
    /// Whether ``run()`` has ended: calls made before it starts wait for it (tbrd's calls can arrive
    /// before its service group has started the connection's task); calls after it has ended fail.
    var hasStopped = false
    /// Calls waiting for a connection, by token.
    var connectWaiters: [UInt64: CheckedContinuation<WebSocketClient, any Error>] = [:]
    /// Commands sent and their answers, by message id.
    var replies: [String: ReplySlot] = [:]
    /// Commands whose answer nobody waits for (`start_listening`).
    var unawaited: Set<String> = []
    var nextToken: UInt64 = 0
    /// The commissioning under way: where its progress goes, and the node its event reported.
    var current: (progress: @Sendable (CommissionerProgress) -> Void, reported: NodeID?)?
    /// The message ids of `commission_with_code` commands whose answer is awaited.
    var commissionCommands: Set<String> = []
    /// The message ids of `commission_with_code` commands this side gave up on (timed out) while the
    /// connection stayed up: the server still runs them, one at a time before the next, so a node it
    /// adds while one is outstanding is theirs, not the commissioning under way.
    var abandonedCommissions: Set<String> = []
    /// A commissioning given up on when its connection was lost may still add a node, on the next one.
    var abandonedOnLostConnection = false
    /// Nodes added by a commissioning given up on, to remove from the fabric (each once).
    var orphans: [NodeID] = []
    var disowned: Set<NodeID> = []
    nonisolated let demand: AsyncStream<Void>
    nonisolated let demandContinuation: AsyncStream<Void>.Continuation

    /// A command's answer slot: sent and expected, answered early, or awaited.
    enum ReplySlot {
        case expected
        case arrived(Result<JSONValue, CommissionerError>)
        case waiting(CheckedContinuation<JSONValue, any Error>)
    }

    /// A commissioner talking to python-matter-server at `url`.
    /// - Parameters:
    ///   - connectTimeout: how long connecting may take (default 10 s).
    ///   - logger: connections, disconnections and failures; never a command's arguments.
    public init(url: WebSocketURL, clock: any TBRClock = SystemClock(), connectTimeout: Duration = .seconds(10), logger: Logger = .disabled) {
        self.url = url
        self.clock = clock
        self.connectTimeout = connectTimeout
        self.logger = logger
        (demand, demandContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The server, as words for messages: `python-matter-server at ws://…`.
    nonisolated var server: String { "python-matter-server at \(url)" }

    // MARK: Commissioner

    public func checkAvailable(timeout: Duration) async throws(CommissionerError) {
        let info = try await command("server_info", [:], timeout: timeout)
        serverInfo = info
    }

    public func handOverCredentials(_ dataset: OperationalDataset, timeout: Duration) async throws(CommissionerError) {
        // The dataset holds the network key: it goes to the server only, never to the log.
        _ = try await command("set_thread_dataset", ["dataset": .string(dataset.hexString)], timeout: timeout)
    }

    public func commission(
        _ request: CommissioningRequest, timeout: Duration, progress: @escaping @Sendable (CommissionerProgress) -> Void
    ) async throws(CommissionerError) -> CommissionedNode {
        abandonedOnLostConnection = false
        current = (progress, nil)
        defer { current = nil }
        let result: JSONValue
        do {
            result = try await command(
                "commission_with_code", ["code": .string(request.code), "network_only": .bool(request.onNetwork)], timeout: timeout)
        } catch {
            // A timed-out command's id is in abandonedCommissions already (see abandonReply).
            if error.kind == .connectionLost { abandonedOnLostConnection = true }
            var failure = error
            if error.serverCode == 2 { failure.stage = .interviewed }
            if error.kind == .connectionLost {
                failure.message = "the connection to \(server) was lost while it commissioned the device (\(error.message)); the next payload connects again"
            }
            throw failure
        }
        guard let node = Self.node(from: result) else {
            throw CommissionerError(.invalidResponse, "\(server) answered commission_with_code without a node ID", stage: .nodeAdded)
        }
        if current?.reported == nil {
            progress(.nodeAdded(node.nodeID))
            progress(.interviewed(vendorID: node.vendorID, productID: node.productID))
        }
        return node
    }

    public func openCommissioningWindow(_ node: NodeID, seconds: Int, timeout: Duration) async throws(CommissionerError) -> SharingCodes {
        let result = try await command(
            "open_commissioning_window", ["node_id": .uint(node.rawValue), "timeout": .int(Int64(seconds))], timeout: timeout)
        guard let manual = result["setup_manual_code"]?.string, let qr = result["setup_qr_code"]?.string else {
            throw CommissionerError(.invalidResponse, "\(server) opened a commissioning window on node \(node) but sent no codes")
        }
        return SharingCodes(manualCode: manual, qrCode: qr)
    }

    public func removeNode(_ node: NodeID, timeout: Duration) async throws(CommissionerError) {
        _ = try await command("remove_node", ["node_id": .uint(node.rawValue)], timeout: timeout)
    }

    public func nodes(timeout: Duration) async throws(CommissionerError) -> [CommissionedNode] {
        let result = try await command("get_nodes", [:], timeout: timeout)
        return (result.array ?? []).compactMap(Self.node(from:))
    }

    /// A node object of the server: `node_id`, and BasicInformation's vendor (0/40/2) and product
    /// (0/40/4) IDs from its interviewed attributes.
    static func node(from value: JSONValue) -> CommissionedNode? {
        guard let id = value["node_id"]?.uint64 else { return nil }
        let attributes = value["attributes"]
        func id16(_ key: String) -> UInt16? { attributes?[key]?.uint64.flatMap { UInt16(exactly: $0) } }
        return CommissionedNode(nodeID: NodeID(id), vendorID: id16("0/40/2"), productID: id16("0/40/4"))
    }

    // MARK: commands

    /// Sends `name` with `args` and waits for its answer, within `timeout` (connecting included).
    /// - Throws: ``CommissionerError``: `unavailable` (no connection), `timedOut`, `connectionLost`,
    ///   `refused` (the server's error, with its code and details), `invalidResponse`.
    func command(_ name: String, _ args: [String: JSONValue], timeout: Duration) async throws(CommissionerError) -> JSONValue {
        let outcome: TimeLimit.Outcome<JSONValue>
        do {
            outcome = try await TimeLimit.run(timeout, clock: clock) { try await self.roundTrip(name, args) }
        } catch let error as CommissionerError {
            logger.debug("python-matter-server command failed", [("command", name), ("error", error.message)])
            throw error
        } catch {
            throw CommissionerError(.unavailable, "\(name) on \(server) was cancelled: tbrd is stopping")
        }
        switch outcome {
        case .finished(let value): return value
        case .timedOut:
            logger.info("python-matter-server did not answer in time", [("command", name), ("seconds", Self.seconds(timeout))])
            throw CommissionerError(.timedOut, "\(server) did not answer \(name) within \(Self.seconds(timeout)) s")
        }
    }

    private func roundTrip(_ name: String, _ args: [String: JSONValue]) async throws -> JSONValue {
        let client = try await connection()
        nextToken += 1
        let id = String(nextToken)
        replies[id] = .expected
        if name == "commission_with_code" { commissionCommands.insert(id) }
        do {
            try await client.send(text: MatterServerMessage.command(id: id, name, args))
        } catch {
            replies[id] = nil
            commissionCommands.remove(id)
            throw CommissionerError(.connectionLost, "\(server) cannot be sent \(name): \(error)")
        }
        logger.debug("python-matter-server command sent", [("command", name), ("message-id", id)])
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<JSONValue, any Error>) in
                switch replies[id] {
                case .arrived(let result)?:
                    replies[id] = nil
                    c.resume(with: result.mapError { $0 as any Error })
                case .expected?:
                    replies[id] = .waiting(c)
                case .waiting?, nil:
                    c.resume(throwing: CommissionerError(.connectionLost, "the connection to \(server) was lost before it answered \(name)"))
                }
            }
        } onCancel: {
            executor.queue.async { [self] in self.assumeIsolated { $0.abandonReply(id) } }
        }
    }

    private func abandonReply(_ id: String) {
        guard let slot = replies.removeValue(forKey: id) else { return }
        if commissionCommands.remove(id) != nil { abandonedCommissions.insert(id) }
        if case .waiting(let c) = slot { c.resume(throwing: CancellationError()) }
    }

    static func seconds(_ d: Duration) -> String {
        let (s, atto) = d.components
        return atto == 0 ? String(s) : String(Double(s) + Double(atto) / 1e18)
    }
}
