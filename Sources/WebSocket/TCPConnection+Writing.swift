import Dispatch
import TBRFoundation

#if canImport(Glibc)
import Glibc
#endif

/// The writing half of ``TCPConnection``: writes queued and written whole, in order, never interleaved
/// (and, below, the socket options tests read).
extension TCPConnection {
    /// Writes all of `bytes`, after the writes queued before it.
    /// - Throws: ``WebSocketError/connectionLost(_:)``, ``WebSocketError/closedLocally``;
    ///   ``WebSocketError/cancelled`` when the task is cancelled before the bytes are written, which ends
    ///   this write only (see ``abandonWrite(_:)``), not the connection.
    func write(_ bytes: [UInt8]) async throws(WebSocketError) {
        if let failure { throw failure }
        guard socket != nil else { throw .closedLocally }
        // A task already cancelled still writes what the socket takes at once (a close frame on the way
        // out of a cancelled handler, say); the rest is abandoned as below.
        lastWriteID += 1
        let id = lastWriteID
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                    writes.append(TCPPendingWrite(bytes: bytes[...], done: c, id: id))
                    queuedBytes += bytes.count
                    if writes.count == 1 { flush() }
                }
            } onCancel: {
                executor.queue.async { [self] in self.assumeIsolated { $0.abandonWrite(id) } }
            }
        } catch let error as WebSocketError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// Queues all of `bytes` after the writes queued before it, without waiting for them to be written
    /// (for pongs and pings, which no caller waits for and whose send a cancellation must not cut). A
    /// failure to write them ends the connection, and later calls see it.
    ///
    /// When more than ``maximumBacklog`` bytes already wait, `bytes` are dropped instead: a peer that
    /// sends pings and reads nothing cannot make the queue of answers grow without bound (RFC 6455,
    /// 5.5.3, lets an endpoint answer only the latest ping).
    /// - Returns: whether the bytes were queued.
    @discardableResult
    func enqueue(_ bytes: [UInt8]) -> Bool {
        guard failure == nil, socket != nil else { return false }
        guard queuedBytes <= Self.maximumBacklog else { return false }
        writes.append(TCPPendingWrite(bytes: bytes[...], done: nil, id: 0))
        queuedBytes += bytes.count
        if writes.count == 1 { flush() }
        return true
    }

    /// The most bytes waiting to be written before ``enqueue(_:)`` drops what it is given.
    static let maximumBacklog = 64 * 1024

    /// Writes what it can of the queue; waits for writability when the socket is full.
    func flush() {
        guard let socket else { return }
        while !writes.isEmpty {
            let n = writes[0].bytes.withUnsafeBytes { Glibc.write(socket.descriptor, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    socket.enabled.insert(.writable)
                    return
                }
                fail(.connectionLost(Errno(errno).description))
                return
            }
            writes[0].bytes = writes[0].bytes.dropFirst(n)
            queuedBytes -= n
            if writes[0].bytes.isEmpty { writes.removeFirst().done?.resume() }
        }
        socket.enabled.remove(.writable)
    }

    /// The write source fired: a connect finished, or the socket takes more bytes.
    func writable() {
        if let connecting {
            self.connecting = nil
            socket?.enabled.remove(.writable)
            connecting.resume()
            return
        }
        flush()
    }

    /// The caller of write `id` gave up (its task was cancelled: it stopped, or its time limit passed).
    /// Its bytes are dropped if none is on the wire yet; otherwise they are written to the end without a
    /// waiter, since half a frame cannot be taken back and cutting it would end the connection for every
    /// other caller. Either way the caller gets ``WebSocketError/cancelled`` now.
    func abandonWrite(_ id: UInt64) {
        guard let index = writes.firstIndex(where: { $0.id == id }), let done = writes[index].done else { return }
        if writes[index].started {
            writes[index].done = nil
        } else {
            queuedBytes -= writes[index].bytes.count
            writes.remove(at: index)
        }
        done.resume(throwing: WebSocketError.cancelled)
    }
}

/// Bytes to write, in order.
struct TCPPendingWrite {
    var bytes: ArraySlice<UInt8>
    /// The caller waiting for them; nil for ``enqueue(_:)``'s and for a write whose caller gave up
    /// after part of it was written.
    var done: CheckedContinuation<Void, any Error>?
    /// The ``write(_:)`` they came from (0 for ``enqueue(_:)``), for its cancellation.
    let id: UInt64
    /// Whether some of them are on the wire.
    var started: Bool { bytes.startIndex > 0 }
}

extension TCPConnection {
    /// The socket's keepalive options (`SO_KEEPALIVE`, `TCP_KEEPIDLE`, `TCP_KEEPINTVL`, `TCP_KEEPCNT`,
    /// `TCP_USER_TIMEOUT`) as the kernel reports them, for tests; empty when closed.
    func socketOptions() -> [Int32: Int32] {
        guard let fd = currentDescriptor else { return [:] }
        var out: [Int32: Int32] = [:]
        for (level, name) in [(SOL_SOCKET, SO_KEEPALIVE), (Int32(IPPROTO_TCP), TCP_KEEPIDLE), (Int32(IPPROTO_TCP), TCP_KEEPINTVL),
            (Int32(IPPROTO_TCP), TCP_KEEPCNT), (Int32(IPPROTO_TCP), TCP_USER_TIMEOUT)]
        {
            var value: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(fd, level, name, &value, &size) == 0 { out[name] = value }
        }
        return out
    }
}
