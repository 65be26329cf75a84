import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// The owner of one connected TCP socket and its two Dispatch sources: reads are watched on the socket,
/// writes on a duplicate of it (libdispatch multiplexes the sources of one descriptor on Linux, and a
/// suspended write source could hide the read source's readiness; the DBus layer learnt this first).
/// Both sources start suspended; ``armRead(_:)`` / ``armWrite(_:)`` resume or suspend them. ``close()``
/// (or `deinit`) cancels them, and their cancel handlers close the descriptors. Used only on its queue.
final class SocketHandle {
    let fd: Int32
    private let readSource: any DispatchSourceRead
    private let writeSource: any DispatchSourceWrite
    private var readArmed = false
    private var writeArmed = false
    private(set) var isClosed = false

    /// Takes `fd` (connected, non-blocking); the handlers run on `queue`.
    /// - Throws: the `errno` of a failed `dup`.
    init(fd: Int32, queue: DispatchQueue, readable: @escaping @Sendable () -> Void, writable: @escaping @Sendable () -> Void)
        throws(SocketErrno)
    {
        let writeFD = dup(fd)
        guard writeFD >= 0 else {
            let code = errno
            Glibc.close(fd)
            throw SocketErrno(code)
        }
        self.fd = fd
        readSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        writeSource = DispatchSource.makeWriteSource(fileDescriptor: writeFD, queue: queue)
        readSource.setEventHandler(handler: readable)
        writeSource.setEventHandler(handler: writable)
        readSource.setCancelHandler { Glibc.close(fd) }
        writeSource.setCancelHandler { Glibc.close(writeFD) }
        // Activate, then suspend at once: nothing runs in between, since this runs on the queue.
        readSource.activate()
        readSource.suspend()
        writeSource.activate()
        writeSource.suspend()
    }

    /// Watches (or stops watching) for readability.
    func armRead(_ on: Bool) {
        guard !isClosed, on != readArmed else { return }
        readArmed = on
        if on { readSource.resume() } else { readSource.suspend() }
    }

    /// Watches (or stops watching) for writability.
    func armWrite(_ on: Bool) {
        guard !isClosed, on != writeArmed else { return }
        writeArmed = on
        if on { writeSource.resume() } else { writeSource.suspend() }
    }

    /// Cancels both sources (which close the descriptors). Idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        // A suspended source must be resumed before it is cancelled and released.
        if !readArmed { readSource.resume() }
        if !writeArmed { writeSource.resume() }
        readSource.cancel()
        writeSource.cancel()
    }

    deinit { close() }
}

/// An `errno` from a socket call, with the system's sentence.
struct SocketErrno: Error, Hashable, Sendable, CustomStringConvertible {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
}
