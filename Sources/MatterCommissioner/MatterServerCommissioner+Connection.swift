import MatterOnboarding
import TBRFoundation
import WebSocket

/// The connection: made on demand by ``MatterServerCommissioner/run()``, read until it ends.
extension MatterServerCommissioner {
    /// Keeps the connection while the task runs: waits until a call needs one, connects, reads every
    /// message, and when the connection ends fails what waited on it and waits for the next call.
    public func run() async {
        if !connectWaiters.isEmpty { demandContinuation.yield() }
        for await _ in demand {
            guard !connectWaiters.isEmpty, client == nil else { continue }
            await serveOneConnection()
        }
        hasStopped = true
        let closing = client
        client = nil
        failEverything(CommissionerError(.unavailable, "tbrd's connection to \(server) is stopping"))
        await closing?.close()
    }

    /// The connection for a command: the open one, or one ``run()`` makes now.
    /// - Throws: ``CommissionerError`` `unavailable` when none can be made; `CancellationError`.
    func connection() async throws -> WebSocketClient {
        if let client { return client }
        guard !hasStopped else { throw CommissionerError(.unavailable, "tbrd's connection to \(server) has stopped") }
        nextToken += 1
        let token = nextToken
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<WebSocketClient, any Error>) in
                connectWaiters[token] = c
                demandContinuation.yield()
            }
        } onCancel: {
            executor.queue.async { [self] in
                self.assumeIsolated { $0.connectWaiters.removeValue(forKey: token)?.resume(throwing: CancellationError()) }
            }
        }
    }

    /// Connects, says hello (`start_listening`), hands the connection to the calls waiting, and reads
    /// until it ends.
    private func serveOneConnection() async {
        let connected: (WebSocketClient, JSONValue)
        do {
            connected = try await connect()
        } catch {
            logger.warning("cannot reach python-matter-server", [("url", url.description), ("error", error.message)])
            let waiting = connectWaiters
            connectWaiters.removeAll()
            for c in waiting.values { c.resume(throwing: error) }
            return
        }
        let (client, info) = connected
        serverInfo = info
        nextToken += 1
        let listen = String(nextToken)
        unawaited.insert(listen)
        do {
            try await client.send(text: MatterServerMessage.command(id: listen, "start_listening", [:]))
        } catch {
            logger.warning("python-matter-server closed the connection at once", [("url", url.description), ("error", error.description)])
            let waiting = connectWaiters
            connectWaiters.removeAll()
            for c in waiting.values { c.resume(throwing: CommissionerError(.unavailable, "\(server) closed the connection at once: \(error)")) }
            return
        }
        self.client = client
        logger.info(
            "connected to python-matter-server",
            [("url", url.description), ("schema", info["schema_version"]?.int64.map(String.init) ?? "?"),
             ("sdk", info["sdk_version"]?.string ?? "?")])
        let waiting = connectWaiters
        connectWaiters.removeAll()
        for c in waiting.values { c.resume(returning: client) }

        var why: String
        while true {
            let text: String
            do throws(WebSocketError) {
                switch try await client.receive() {
                case .text(let t): text = t
                case .binary: continue
                }
            } catch .cancelled {
                why = "tbrd is stopping"
                break
            } catch {
                why = error.description
                break
            }
            handle(text)
            while !orphans.isEmpty {
                let node = orphans.removeFirst()
                nextToken += 1
                let id = String(nextToken)
                unawaited.insert(id)
                do {
                    try await client.send(text: MatterServerMessage.command(id: id, "remove_node", ["node_id": .uint(node.rawValue)]))
                } catch {
                    logger.warning("could not ask python-matter-server to remove a node", [("node", node.description), ("error", error.description)])
                }
            }
        }
        if self.client === client { self.client = nil }
        await client.close()
        unawaited.removeAll()
        // Answers to this connection's commands never come now.
        commissionCommands.removeAll()
        abandonedCommissions.removeAll()
        logger.notice("the connection to python-matter-server ended; the next call connects again", [("url", url.description), ("why", why)])
        failEverything(CommissionerError(.connectionLost, "the connection to \(server) ended: \(why)"))
    }

    /// A new connection and the server's greeting, within ``connectTimeout``.
    private func connect() async throws(CommissionerError) -> (WebSocketClient, JSONValue) {
        let url = self.url, logger = self.logger, server = self.server
        let outcome: TimeLimit.Outcome<(WebSocketClient, JSONValue)>
        do {
            outcome = try await TimeLimit.run(connectTimeout, clock: clock) { () async throws -> (WebSocketClient, JSONValue) in
                let client: WebSocketClient
                do { client = try await WebSocketClient.connect(to: url, logger: logger) } catch {
                    throw CommissionerError(.unavailable, "cannot reach \(server): \(error)")
                }
                do {
                    guard case .text(let text) = try await client.receive(),
                        case .serverInfo(let info) = try MatterServerMessage(text: text)
                    else {
                        await client.close()
                        throw CommissionerError(.unavailable, "\(server) did not greet with its server information")
                    }
                    return (client, info)
                } catch let error as CommissionerError {
                    await client.close()
                    throw error
                } catch {
                    await client.close()
                    throw CommissionerError(.unavailable, "\(server) closed the connection before it greeted: \(error)")
                }
            }
        } catch let error as CommissionerError {
            throw error
        } catch {
            throw CommissionerError(.unavailable, "connecting to \(server) was cancelled")
        }
        guard case .finished(let connected) = outcome else {
            throw CommissionerError(.unavailable, "\(server) did not accept a connection within \(Self.seconds(connectTimeout)) s")
        }
        return connected
    }

    /// One message from the server.
    private func handle(_ text: String) {
        let message: MatterServerMessage
        do { message = try MatterServerMessage(text: text) } catch {
            logger.warning("python-matter-server sent a message that cannot be read; ignored", [("error", error.message)])
            return
        }
        switch message {
        case .result(let id, let value):
            answer(id, .success(value))
        case .error(let id, let code, let details):
            let words = "\(server): \(MatterServerMessage.meaning(of: code)) (error \(code))" + (details.isEmpty ? "" : ": \(details)")
            answer(id, .failure(CommissionerError(.refused, words, serverCode: code)))
        case .event(let name, let data):
            event(name, data)
        case .serverInfo(let info):
            serverInfo = info
        }
    }

    private func answer(_ id: String, _ result: Result<JSONValue, CommissionerError>) {
        commissionCommands.remove(id)
        if abandonedCommissions.remove(id) != nil {
            if case .success(let value) = result, let node = Self.node(from: value) { disown(node.nodeID) }
            return
        }
        if unawaited.remove(id) != nil {
            if case .failure(let error) = result {
                logger.warning("python-matter-server refused start_listening: node events will not arrive", [("error", error.message)])
            }
            return
        }
        switch replies[id] {
        case .expected?: replies[id] = .arrived(result)
        case .waiting(let c)?:
            replies[id] = nil
            c.resume(with: result.mapError { $0 as any Error })
        case .arrived?, nil:
            logger.debug("python-matter-server answered a command nobody waits for", [("message-id", id)])
        }
    }

    private func event(_ name: String, _ data: JSONValue) {
        switch name {
        case "node_added":
            guard let node = Self.node(from: data) else { return }
            if !abandonedCommissions.isEmpty || disowned.contains(node.nodeID) {
                disown(node.nodeID)
            } else if var current, current.reported == nil {
                current.reported = node.nodeID
                self.current = current
                current.progress(.nodeAdded(node.nodeID))
                current.progress(.interviewed(vendorID: node.vendorID, productID: node.productID))
            } else if abandonedOnLostConnection {
                abandonedOnLostConnection = false
                disown(node.nodeID)
            }
        case "server_info_updated":
            serverInfo = data
        default:
            break
        }
    }

    /// A node added by a commissioning this side gave up on: removed from the fabric once.
    private func disown(_ node: NodeID) {
        guard disowned.insert(node).inserted else { return }
        logger.notice(
            "python-matter-server added a node after tbrd gave up on its commissioning; removing it from the fabric",
            [("node", node.description)])
        orphans.append(node)
    }

    /// Fails every call waiting for a connection or an answer with `error`.
    func failEverything(_ error: CommissionerError) {
        let waiting = connectWaiters
        connectWaiters.removeAll()
        for c in waiting.values { c.resume(throwing: error) }
        let slots = replies
        replies.removeAll()
        for case .waiting(let c) in slots.values { c.resume(throwing: error) }
    }
}
