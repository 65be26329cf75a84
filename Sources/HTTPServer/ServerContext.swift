internal import CMicroHTTPD
import Dispatch
import HTTPMessages
import TBRFoundation

#if canImport(Glibc)
import Glibc
#endif

/// A connection as libmicrohttpd hands it around: a pointer that stays valid until the connection is
/// closed, which the server never lets happen while the connection is suspended (it resumes every
/// suspended connection before stopping). Resumed from any thread (MHD_resume_connection is safe there).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What libmicrohttpd's callbacks reach: the library, the handlers, the headers of every response, the
/// bounds, the connection table, the requests being handled and the streams still being sent.
final class ServerContext: Sendable {
    let api: LibMicroHTTPD.API
    let handler: HTTPServer.Handler
    let admit: HTTPServer.Admission?
    let headers: [String: String]
    let limits: HTTPServer.Limits
    let table: Locked<ConnectionTable>
    private let streams = Locked<[ObjectIdentifier: HTTPResponseStream]>([:])
    /// Set once ``HTTPServer/stop()`` began: requests are answered 503 without reaching a handler, and
    /// streams end as they start.
    private let stopping = Locked(false)
    /// Handlers (and admissions) still running; stopping waits for them.
    private let inFlight = DispatchGroup()
    /// The sweep: deadlines and heartbeats, once a second while connections are open (an idle server
    /// sets no timer).
    let sweepQueue = DispatchQueue(label: "tbrd.http.server.sweep")
    nonisolated(unsafe) private var sweepTimer: QueueTimer?

    init(api: LibMicroHTTPD.API, handler: @escaping HTTPServer.Handler, admit: HTTPServer.Admission?, headers: [String: String], limits: HTTPServer.Limits) {
        self.api = api
        self.handler = handler
        self.admit = admit
        self.headers = headers
        self.limits = limits
        table = Locked(ConnectionTable(strangerLimit: limits.strangers, headDeadline: limits.headDeadline, bodyDeadline: limits.bodyDeadline))
    }

    func opened(_ stream: HTTPResponseStream) { streams.withLock { $0[ObjectIdentifier(stream)] = stream } }
    func closed(_ stream: HTTPResponseStream) { _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) } }

    /// Ends every stream still open, so that their connections are resumed and closed.
    func closeStreams() {
        for stream in streams.withLock({ Array($0.values) }) { stream.finish() }
    }

    /// Makes the sweep's timer, disarmed until a connection opens (``connectionOpened(first:)``).
    func startSweep() {
        sweepQueue.sync { sweepTimer = QueueTimer(queue: sweepQueue) { [weak self] in self?.sweep() } }
    }

    /// A connection opened; with `first` (the table was empty) the sweep starts again: every second, the
    /// connections past their deadline are shut down and silent streams get their heartbeat.
    func connectionOpened(first: Bool) {
        guard first else { return }
        sweepQueue.async { [weak self] in
            guard let timer = self?.sweepTimer, !timer.isArmed else { return }
            timer.arm(every: .seconds(1))
        }
    }

    func stopSweep() {
        sweepQueue.sync {
            sweepTimer?.cancel()
            sweepTimer = nil
        }
    }

    private func sweep() {
        dispatchPrecondition(condition: .onQueue(sweepQueue))
        let now = ContinuousClock.now
        let empty = table.withLock { table -> Bool in
            // Under the table's lock: a closed connection leaves the table before its socket is closed.
            for fd in table.expired(at: now) { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
            return table.entries.isEmpty
        }
        for stream in streams.withLock({ Array($0.values) }) { stream.beatIfSilent(at: now) }
        // No connection (streams are connections): no timer until the next one opens. One that opened
        // meanwhile has queued its connectionOpened behind this sweep, which arms the timer again.
        if empty { sweepTimer?.disarm() }
    }

    var isStopping: Bool { stopping.withLock { $0 } }

    /// Stops taking work, then waits for the work handed off (whose connections it resumes).
    func drain() {
        stopping.withLock { $0 = true }
        inFlight.wait()
    }

    /// Suspends `connection` and runs `work` as a task the server waits for when stopping, then resumes
    /// the connection; false (nothing done) once the server is stopping. Counted under the same lock as
    /// ``drain()`` sets the flag: no work starts that drain does not wait for.
    func handOff(_ connection: ConnectionHandle, _ work: @escaping @Sendable () async -> Void) -> Bool {
        let begun = stopping.withLock { stopping -> Bool in
            if stopping { return false }
            inFlight.enter()
            return true
        }
        guard begun else { return false }
        let api = self.api
        api.suspend(connection.pointer)
        Task {
            await work()
            api.resume(connection.pointer)
            self.inFlight.leave()
        }
        return true
    }
}
