import Foundation
import Synchronization
import TBRFoundation
import TBRLifecycle
import TBRTestKit

/// Signals a test sends by hand: the seam that keeps most group tests away from real signals.
final class ManualSignalSource: SignalSource {
    let stream: AsyncStream<UnixSignal>
    let continuation: AsyncStream<UnixSignal>.Continuation
    /// What the group asked to trap.
    let trapped = Locked<[UnixSignal]>([])

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: UnixSignal.self)
    }

    func trap(_ signals: [UnixSignal]) async -> UnixSignals {
        trapped.withLock { $0 = signals }
        return UnixSignals(stream)
    }

    func send(_ signal: UnixSignal) {
        continuation.yield(signal)
    }
}

/// A thread-safe log of what services did, in order.
final class Recorder: Sendable {
    private let entries = Locked<[String]>([])
    /// Told after each entry.
    let changes = ChangeNotifier()

    func record(_ entry: String) {
        entries.withLock { $0.append(entry) }
        changes.changed()
    }

    var log: [String] { entries.withLock { $0 } }

    /// How many times `entry` was recorded.
    func count(_ entry: String) -> Int { log.filter { $0 == entry }.count }

    /// Waits until `entry` has been recorded.
    func waitFor(_ entry: String, timeout: Duration = .seconds(10)) async throws {
        try await eventually("\"\(entry)\" happens (log: \(log))", timeout: timeout, wakingOn: changes.wakeups) {
            self.log.contains(entry)
        }
    }
}

/// Runs until cancelled, recording its start and its cancellation.
struct SleepingService: Service {
    let name: String
    let recorder: Recorder

    func run() async throws {
        recorder.record("\(name) started")
        do {
            try await Task.sleep(for: .seconds(3600))
        } catch {
            recorder.record("\(name) cancelled")
            throw error
        }
    }
}

/// Waits for the graceful shutdown, then finishes its work and returns (or ignores it, when told to).
struct DrainingService: Service {
    let name: String
    let recorder: Recorder
    var ignoresShutdown = false

    func run() async throws {
        recorder.record("\(name) started")
        if ignoresShutdown {
            await withGracefulShutdownHandler {
                // Until cancelled (the sleep ends at once then).
                try? await Task.sleep(for: .seconds(3600))
            } onGracefulShutdown: {
                recorder.record("\(name) ignored the shutdown")
            }
            recorder.record("\(name) cancelled")
            throw CancellationError()
        }
        try await gracefulShutdown()
        if Task.isShuttingDownGracefully { recorder.record("\(name) saw the shutdown") }
        await Task.yield()  // finishing its work: the group waits for it, however long it takes
        recorder.record("\(name) drained")
    }
}

/// Throws once `after` has been recorded (another service has started).
struct FailingService: Service {
    struct Failure: Error, Equatable { let message: String }
    let after: String
    let recorder: Recorder

    func run() async throws {
        recorder.record("failing started")
        try await recorder.waitFor(after)
        throw Failure(message: "boom")
    }
}

/// Returns once `after` has been recorded (another service has started).
struct ReturningService: Service {
    let after: String
    let recorder: Recorder

    func run() async throws {
        recorder.record("returning started")
        try await recorder.waitFor(after)
        recorder.record("returning returned")
    }
}

/// A logger that discards everything (set TBRD_TEST_LOG=1 to see the group's records on stderr).
let testLogger: Logger = {
    if ProcessInfo.processInfo.environment["TBRD_TEST_LOG"] != nil {
        return Logger(label: "lifecycle", minimumLevel: .debug, sink: StandardErrorSink(syslogPrefix: false))
    }
    return .disabled
}()

struct TimedOut: Error, CustomStringConvertible {
    var description: String
}

/// Runs `body`, failing with ``TimedOut`` if it takes longer than `limit` (the body is cancelled).
///
/// The limit only bounds how long a hanging test waits; nothing here measures speed. It is at least 60 s:
/// in a whole `make test` these tests start with the suite, and there their few milliseconds of work took
/// 18–20 s (measured, idle machine) and 22–23 s under `stress-ng --cpu 2`, so the 20 s they had was
/// outrun by a test that was right.
func withTimeout<R: Sendable>(
    _ limit: Duration = .seconds(60), _ what: String = "the operation", _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
    let limit = max(limit, .seconds(60))
    switch try await TimeLimit.run(limit, clock: SystemClock(), body) {
    case .finished(let value): return value
    case .timedOut: throw TimedOut(description: "\(what) did not finish within \(limit)")
    }
}
