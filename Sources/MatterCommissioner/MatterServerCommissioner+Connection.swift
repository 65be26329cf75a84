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
        connectWaiters.expect(token)
        demandContinuation.yield()
        return try await connectWaiters.wait(for: token)
    }

    /// Connects, hands the connection to the calls waiting, and reads until it ends.
    private func serveOneConnection() async {
        let connected: (WebSocketClient, JSON)
        do {
            connected = try await connect()
        } catch {
            logger.warning("cannot reach python-matter-server", [("url", url.description), ("error", error.message)])
            connectWaiters.failAll(error)
            return
        }
        let (client, info) = connected
        serverInfo = info
        self.client = client
        logger.info(
            "connected to python-matter-server",
            [("url", url.description), ("schema", info["schema_version"]?.int64.map(String.init) ?? "?"),
             ("sdk", info["sdk_version"]?.string ?? "?")])
        connectWaiters.deliverAll(.success(client))

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
        }
        if self.client === client { self.client = nil }
        await client.close()
        // Answers to this connection's commands never come now.
        commissionCommands.removeAll()
        givenUp.removeAll()
        logger.notice("the connection to python-matter-server ended; the next call connects again", [("url", url.description), ("why", why)])
        failEverything(CommissionerError(.connectionLost, "the connection to \(server) ended: \(why)"))
    }

    /// A new connection and the server's greeting, within ``connectTimeout``.
    private func connect() async throws(CommissionerError) -> (WebSocketClient, JSON) {
        let url = self.url, logger = self.logger, server = self.server, keepalive = self.keepalive
        let outcome: TimeLimit.Outcome<(WebSocketClient, JSON)>
        do {
            outcome = try await TimeLimit.run(connectTimeout, clock: clock) { () async throws -> (WebSocketClient, JSON) in
                let client: WebSocketClient
                do { client = try await WebSocketClient.connect(to: url, keepalive: keepalive, logger: logger) } catch {
                    throw CommissionerError(.unavailable, "cannot reach \(server): \(error)")
                }
                do {
                    guard case .text(let text) = try await client.receive(),
                        case .serverInfo(let info) = try MatterServerMessage(text: text)
                    else {
                        await client.close()
                        throw CommissionerError(.unavailable, "\(server) did not greet with its server information")
                    }
                    if let refusal = Self.schemaProblem(info, server: server) {
                        await client.close()
                        throw refusal
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
        case .event:
            // Never asked for (no start_listening): and an event could come from anyone's request.
            break
        case .serverInfo(let info):
            serverInfo = info
        }
    }

    private func answer(_ id: String, _ result: Result<JSON, CommissionerError>) {
        let commission = commissionCommands.removeValue(forKey: id)
        if let reference = givenUp.removeValue(forKey: id) {
            lateAnswer(to: reference, result)
        } else if replies.deliver(result.mapError { $0 }, to: id) {
            return
        } else if let reference = commission {
            // Its wait was given up a moment ago, before ``roundTrip`` could say so.
            lateAnswer(to: reference, result)
        } else {
            logger.debug("python-matter-server answered a command nobody waits for", [("message-id", id)])
        }
    }

    /// The answer to a `commission_with_code` tbrd gave up on. The evidence is the answer to tbrd's own
    /// command, but its payload has already failed with an unknown outcome: the node is left unclaimed
    /// for a person to adopt, never removed.
    private func lateAnswer(to reference: String, _ result: Result<JSON, CommissionerError>) {
        if case .success(let value) = result, let node = Self.node(from: value) {
            logger.notice(
                "python-matter-server finished a commissioning tbrd had given up on; the node is unclaimed (tbrctl matter nodes --unclaimed)",
                [("payload", reference), ("node", node.nodeID.description)])
        }
    }

    /// Why tbrd cannot talk to a server that greeted with `info`, or nil: its schema is older than the one
    /// tbrd speaks, or it no longer supports that one (python-matter-server's own client refuses the same).
    static func schemaProblem(_ info: JSON, server: String) -> CommissionerError? {
        guard let schema = info["schema_version"]?.int64 else {
            return CommissionerError(.unavailable, "\(server) greeted without a schema_version: it is not a python-matter-server tbrd knows")
        }
        let sdk = info["sdk_version"]?.string.map { ", SDK \($0)" } ?? ""
        if schema < schemaVersion {
            return CommissionerError(
                .unavailable,
                "\(server) speaks schema \(schema)\(sdk), older than the schema \(schemaVersion) tbrd speaks: upgrade python-matter-server")
        }
        if let minimum = info["min_supported_schema_version"]?.int64, minimum > schemaVersion {
            return CommissionerError(
                .unavailable,
                "\(server) speaks schema \(schema)\(sdk) and no longer supports the schema \(schemaVersion) tbrd speaks "
                    + "(it needs \(minimum) or later): upgrade tbrd")
        }
        return nil
    }

    /// Fails every call waiting for a connection or an answer with `error`.
    func failEverything(_ error: CommissionerError) {
        connectWaiters.failAll(error)
        replies.failAll(error)
    }
}
