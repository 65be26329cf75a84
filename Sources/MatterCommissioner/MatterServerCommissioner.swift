import FoundationEssentials
public import MatterOnboarding
public import MeshCoP
public import TBRFoundation
public import WebSocket

/// python-matter-server (the Matter controller Home Assistant runs) as tbrd's commissioner, over its
/// WebSocket API (schema 11; `../shared/reference/matter-server.md`).
///
/// One connection, made when a call needs it and kept while it lasts; ``run()`` reads it (results and
/// errors of tbrd's commands). Every command is bounded by its timeout. When the connection goes away
/// (the server stops, crashes or restarts) the calls waiting fail with `connectionLost`, and the next call
/// connects again. A server whose schema is older than the one tbrd speaks is refused by name and
/// version.
///
/// The server is usually shared with other controllers, so this client acts only on evidence that names
/// its own request: a node is tbrd's when the result of tbrd's `commission_with_code` names it. It does
/// not listen to the server's events at all (`start_listening` is never sent): a `node_added` can come
/// from anyone. A commissioning whose answer never came (timed out, connection lost) fails with an
/// unknown outcome and nothing is removed: the node the server may still add is left for a person to
/// adopt or leave alone. A late answer to a command given up on is only logged, with the node it names.
public actor MatterServerCommissioner: Commissioner {
    public nonisolated let backendName = "matter-server"
    /// The schema tbrd speaks (python-matter-server 8's `SCHEMA_VERSION`): a server older than this is
    /// refused, as is one whose `min_supported_schema_version` is above it.
    public static let schemaVersion: Int64 = 11
    /// Where the server listens (`ws://127.0.0.1:5580/ws` by default).
    public nonisolated let url: WebSocketURL
    let clock: any TBRClock
    let logger: Logger
    /// How long making a connection (TCP, handshake, the server's greeting) may take.
    let connectTimeout: Duration
    /// The pings that find a server that went away (a ping every 10 s, its pong within 5 s; with TCP
    /// keepalive besides, a dead server fails every waiting call within 20 s).
    let keepalive: WebSocketKeepalive

    let executor = DispatchQueueExecutor(label: "tbrd.matter-server")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    var client: WebSocketClient?
    /// The server's information, as it last sent it.
    public internal(set) var serverInfo: JSON?
    /// Whether ``run()`` has ended: calls made before it starts wait for it (tbrd's calls can arrive
    /// before its service group has started the connection's task); calls after it has ended fail.
    var hasStopped = false
    /// Calls waiting for a connection, by token: all are answered with the connection ``run()`` makes,
    /// or with why it could not.
    let connectWaiters = ReplySlots<UInt64, WebSocketClient>()
    /// The answers of the commands sent, by message id.
    let replies = ReplySlots<String, JSON>()
    /// The `commission_with_code` commands whose answer is awaited: message id → the request's reference.
    var commissionCommands: [String: String] = [:]
    /// `commission_with_code` commands given up on (timed out) on a connection still up: message id → the
    /// request's reference. Their late answer is logged, never acted on.
    var givenUp: [String: String] = [:]
    var nextToken: UInt64 = 0
    nonisolated let demand: AsyncStream<Void>
    nonisolated let demandContinuation: AsyncStream<Void>.Continuation

    /// A commissioner talking to python-matter-server at `url`.
    /// - Parameters:
    ///   - connectTimeout: how long connecting may take (default 10 s).
    ///   - keepalive: how the connection proves the server alive (default: a ping every 10 s, its pong
    ///     within 5 s, on `clock`).
    ///   - logger: connections, disconnections and failures; never a command's arguments.
    public init(
        url: WebSocketURL, clock: any TBRClock = SystemClock(), connectTimeout: Duration = .seconds(10), keepalive: WebSocketKeepalive? = nil,
        logger: Logger = .disabled
    ) {
        self.url = url
        self.clock = clock
        self.connectTimeout = connectTimeout
        self.keepalive = keepalive ?? WebSocketKeepalive(clock: clock)
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
        let result: JSON
        do {
            result = try await command(
                "commission_with_code", ["code": .string(request.code), "network_only": .bool(request.onNetwork)], timeout: timeout,
                reference: request.reference)
        } catch {
            var failure = error
            if error.serverCode == 2 { failure.stage = .interviewed }
            if error.kind == .connectionLost {
                failure.message = "the connection to \(server) was lost while it commissioned the device (\(error.message))"
            }
            if error.isOutcomeUnknown {
                failure.message += "; outcome unknown: the server may still add the device ('tbrctl matter nodes --unclaimed' "
                    + "then lists it, for 'tbrctl matter adopt')"
            }
            throw failure
        }
        // The server sends the node once it has commissioned and interviewed it: both stages at once.
        guard let node = Self.node(from: result) else {
            throw CommissionerError(.invalidResponse, "\(server) answered commission_with_code without a node ID", stage: .nodeAdded)
        }
        progress(.nodeAdded(node.nodeID))
        progress(.interviewed(vendorID: node.vendorID, productID: node.productID))
        return node
    }

    public func openCommissioningWindow(_ node: NodeID, seconds: Int, timeout: Duration) async throws(CommissionerError) -> SharingCodes {
        let result: JSON
        do {
            result = try await command(
                "open_commissioning_window", ["node_id": .uint(node.rawValue), "timeout": .int(Int64(seconds))], timeout: timeout)
        } catch where error.serverCode == 0 && error.message.contains("UnsupportedCluster") {
            // The device has no administrator-commissioning cluster: it cannot be shared at all.
            throw CommissionerError(
                .notSupported, "node \(node) cannot be shared: it has no administrator-commissioning cluster (\(error.message))",
                serverCode: error.serverCode)
        }
        guard let manual = result["setup_manual_code"]?.string, let qr = result["setup_qr_code"]?.string else {
            throw CommissionerError(.invalidResponse, "\(server) opened a commissioning window on node \(node) but sent no codes")
        }
        return SharingCodes(manualCode: manual, qrCode: qr)
    }

    public func removeNode(_ node: NodeID, timeout: Duration) async throws(CommissionerError) {
        _ = try await command("remove_node", ["node_id": .uint(node.rawValue)], timeout: timeout)
    }

    public func writeNodeLabel(_ node: NodeID, _ label: String, timeout: Duration) async throws(CommissionerError) {
        let result = try await command(
            "write_attribute", ["node_id": .uint(node.rawValue), "attribute_path": .string(Self.nodeLabelPath), "value": .string(label)],
            timeout: timeout)
        // One status per path written (`[{"Path": …, "Status": 0}]`); the server answers null for its
        // imported test nodes, which it writes nowhere.
        for entry in result.array ?? [] {
            guard let status = entry["Status"]?.int64 else {
                throw CommissionerError(.invalidResponse, "\(server) answered write_attribute without a status")
            }
            guard status == 0 else {
                throw CommissionerError(.refused, "node \(node) refused the node label: \(Self.interactionStatus(status))")
            }
        }
    }

    public func isReachable(_ node: NodeID, timeout: Duration) async throws(CommissionerError) -> Bool {
        // `{address: answered}` for each address the server knows for the node.
        let result = try await command("ping_node", ["node_id": .uint(node.rawValue)], timeout: timeout)
        guard case .object(let addresses) = result else {
            throw CommissionerError(.invalidResponse, "\(server) answered ping_node with something other than an object")
        }
        return addresses.contains { $0.value == .bool(true) }
    }

    public func nodes(timeout: Duration) async throws(CommissionerError) -> [CommissionedNode] {
        let result = try await command("get_nodes", [:], timeout: timeout)
        return (result.array ?? []).compactMap(Self.node(from:))
    }

    /// BasicInformation's NodeLabel, as the server spells an attribute path.
    static let nodeLabelPath = "0/40/5"

    /// A node object of the server: `node_id`, `available`, and BasicInformation's vendor (0/40/2),
    /// product (0/40/4) and label (0/40/5) from its interviewed attributes.
    static func node(from value: JSON) -> CommissionedNode? {
        guard let id = value["node_id"]?.uint64 else { return nil }
        let attributes = value["attributes"]
        func id16(_ key: String) -> UInt16? { attributes?[key]?.uint64.flatMap { UInt16(exactly: $0) } }
        let label = attributes?[nodeLabelPath]?.string.flatMap { $0.isEmpty ? nil : $0 }
        return CommissionedNode(
            nodeID: NodeID(id), vendorID: id16("0/40/2"), productID: id16("0/40/4"), label: label,
            isAvailable: value["available"] == .bool(true), threadParent: threadParent(attributes?[neighborTablePath]))
    }

    /// Thread Network Diagnostics' NeighborTable, as the server spells an attribute path.
    static let neighborTablePath = "0/53/7"

    /// The one entry of a NeighborTable (0/53/7) that is not the node's child: its parent. The server
    /// writes a struct's fields by tag (`"0"` ExtAddress, `"5"` LQI, `"6"` AverageRssi, `"13"` IsChild) or,
    /// for some devices, by name (python-matter-server issue 579): both are read. nil for no such entry
    /// or several (a router's neighbours are routers: it has no parent).
    static func threadParent(_ table: JSON?) -> ThreadNeighbor? {
        let entries = (table?.array ?? []).filter { entry in
            let isChild = entry["13"] ?? entry["isChild"]
            return isChild == .bool(false)
        }
        guard entries.count == 1, let entry = entries.first, let address = (entry["0"] ?? entry["extAddress"])?.uint64 else { return nil }
        let lqi = (entry["5"] ?? entry["lqi"])?.uint64.flatMap { UInt8(exactly: $0) }
        let rssi = (entry["6"] ?? entry["averageRssi"])?.int64.flatMap { Int8(exactly: $0) }
        return ThreadNeighbor(extAddress: address, lqi: lqi, averageRssi: rssi)
    }

    /// An Interaction Model status (Matter Core Specification, section 8.10) in words.
    static func interactionStatus(_ status: Int64) -> String {
        let hex = "0x" + String(status, radix: 16)
        switch status {
        case 0x7E: return "unsupported access (status \(hex))"
        case 0x86: return "unsupported attribute (status \(hex))"
        case 0x87: return "constraint error: the label is too long for the device (status \(hex))"
        case 0x88: return "the attribute is not writable on this device (status \(hex))"
        case 0x8E: return "the device is busy (status \(hex))"
        case 0xC3: return "unsupported cluster (status \(hex))"
        default: return "status \(hex)"
        }
    }

    // MARK: commands

    /// Sends `name` with `args` and waits for its answer, within `timeout` (connecting included).
    /// - Throws: ``CommissionerError``: `unavailable` (no connection), `timedOut`, `connectionLost`,
    ///   `refused` (the server's error, with its code and details), `invalidResponse`.
    /// - Parameter reference: for `commission_with_code`, the request's reference, logged with a late answer.
    func command(_ name: String, _ args: JSONObject, timeout: Duration, reference: String? = nil) async throws(CommissionerError)
        -> JSON
    {
        let outcome: TimeLimit.Outcome<JSON>
        do {
            outcome = try await TimeLimit.run(timeout, clock: clock) { try await self.roundTrip(name, args, reference: reference) }
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

    private func roundTrip(_ name: String, _ args: JSONObject, reference: String?) async throws -> JSON {
        let client = try await connection()
        nextToken += 1
        let id = String(nextToken)
        replies.expect(id)
        if let reference { commissionCommands[id] = reference }
        do {
            try await client.send(text: MatterServerMessage.command(id: id, name, args))
        } catch {
            replies.cancel(id)
            commissionCommands[id] = nil
            throw CommissionerError(.connectionLost, "\(server) cannot be sent \(name): \(error)")
        }
        logger.debug("python-matter-server command sent", [("command", name), ("message-id", id)])
        do {
            return try await replies.wait(for: id)
        } catch is CancellationError {
            // Given up (timed out, or the caller went away): a late answer is only logged.
            if let reference = commissionCommands.removeValue(forKey: id) { givenUp[id] = reference }
            throw CancellationError()
        }
    }

    static func seconds(_ d: Duration) -> String {
        let (s, atto) = d.components
        return atto == 0 ? String(s) : String(Double(s) + Double(atto) / 1e18)
    }
}
