import TBRFoundation

/// Receiving: messages put together, pings answered, the peer's close answered, and the keepalive.
extension WebSocketConnection {
    /// The next data message. Pings are answered on the way; pongs feed the keepalive.
    /// - Throws: ``WebSocketError/closed(code:reason:)`` when the peer closes (the close is answered),
    ///   `connectionLost` when the stream ends or fails without one or the keepalive's pong is overdue,
    ///   `protocolViolation` (the connection is closed with the status the error names), `cancelled`
    ///   (the connection stays usable), or the error that ended the connection earlier.
    public func receive() async throws(WebSocketError) -> WebSocketMessage {
        if let ended { throw ended }
        precondition(!receiving, "one task receives from a WebSocketConnection")
        receiving = true
        defer { receiving = false }
        guard let keepalive else { return try await receiveMessage() }
        schedule?.readingStarts(at: keepalive.clock.now())
        // The pings run beside the read, as a child of this call: they never cancel the read (which
        // could lose bytes), and they stop when the call returns.
        let result = await withTaskGroup(of: Void.self, returning: Result<WebSocketMessage, WebSocketError>.self) { group in
            group.addTask { await self.keepAlive(keepalive.clock) }
            defer { group.cancelAll() }
            do throws(WebSocketError) {
                return .success(try await receiveMessage())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func receiveMessage() async throws(WebSocketError) -> WebSocketMessage {
        while true {
            let inbound: WebSocketInbound?
            do {
                inbound = try reader.next()
            } catch {
                if !closeSent {
                    closeSent = true
                    await sendClose(Self.closePayload(error.closeCode, ""), because: "\(role.peerName) broke the protocol")
                }
                _ = finish(.protocolViolation(error))
                await tcp.close()
                throw finish(.protocolViolation(error))
            }
            switch inbound {
            case .message(let message)?:
                return message
            case .ping(let payload)?:
                if let ended { throw ended }
                await enqueue(WebSocketFrame(opcode: .pong, payload: payload))
            case .pong(let payload)?:
                schedule?.pong(payload)
            case .close(let code, let reason)?:
                if !closeSent {
                    closeSent = true
                    await sendClose(code.map { Self.closePayload($0, "") } ?? [], because: "answering the close of \(role.peerName)")
                }
                _ = finish(.closed(code: code, reason: reason))
                await tcp.close()
                throw finish(.closed(code: code, reason: reason))
            case nil:
                let chunk: [UInt8]
                do {
                    chunk = try await tcp.read()
                } catch .cancelled {
                    if let ended { throw ended }
                    throw .cancelled
                } catch {
                    throw finish(error)
                }
                guard !chunk.isEmpty else {
                    _ = finish(.connectionLost("\(role.peerName) ended the connection without a closing handshake"))
                    await tcp.close()
                    throw ended!
                }
                reader.append(chunk)
            }
        }
    }

    /// Sends the pings while a receive waits, and fails the connection when a pong is overdue.
    private func keepAlive(_ clock: any TBRClock) async {
        while let wake = schedule?.nextWake {
            do { try await clock.sleep(until: wake) } catch { return }
            guard ended == nil, var schedule else { return }
            let directive = schedule.wake(at: clock.now())
            self.schedule = schedule
            switch directive {
            case .wait:
                continue
            case .ping(let payload):
                await enqueue(WebSocketFrame(opcode: .ping, payload: payload))
            case .fail(let why):
                logger.notice("WebSocket peer did not answer a ping; closing", [("peer", peer), ("url", url.description)])
                closeSent = true
                _ = finish(.connectionLost("\(why): \(role.peerName) at \(peer) is not answering"))
                await tcp.abort()
                return
            }
        }
    }
}
