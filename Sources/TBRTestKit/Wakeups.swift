public import DBus
import Dispatch
import Foundation
import TBRFoundation

#if canImport(Glibc)
import Glibc
#endif

/// What tells a waiting test that the state it waits for may have changed: an event, not a clock.
///
/// ``eventually(_:timeout:wakingOn:until:)`` checks its condition once, then again at each wake-up from its
/// sources, and never on a timer; the timeout only bounds how long a failing test waits. A source is
/// armed before the first check, so a change between that check and the wait is not missed. The sources:
/// - ``TestProcess/wakeups`` — output from the child arrived (``OutputPump``), or it exited
///   (``ExitWatcher``, a pidfd); ``TestProcess/exitWakeups`` — only the exit;
/// - ``RemoteObject/wakeups`` — the object's `PropertiesChanged`;
/// - ``Connection/ownerWakeups(of:)`` — `NameOwnerChanged` for a bus name;
/// - ``ManualClock/wakeups`` — a task started or stopped sleeping on the clock;
/// - ``Wakeups/each(of:)`` — any other `AsyncSequence` of events (a signal stream, a journal watcher).
///
/// A wake-up carries nothing: the condition reads the state itself. Wake-ups that arrive while the
/// condition runs collapse into one (the stream keeps the newest one).
public struct Wakeups: Sendable {
    /// Starts delivering wake-ups into `sink`; answers what stops it (called once, when the wait ends).
    let start: @Sendable (AsyncStream<Void>.Continuation) async throws -> @Sendable () -> Void

    /// Wake-ups from `start`.
    public init(_ start: @escaping @Sendable (AsyncStream<Void>.Continuation) async throws -> @Sendable () -> Void) {
        self.start = start
    }

    /// A wake-up at each element of the sequence `make` returns (made when the wait starts, so that its
    /// subscription is in place before the first check).
    public static func each<S: AsyncSequence & Sendable>(of make: @escaping @Sendable () async throws -> S) -> Wakeups
    where S.Element: Sendable {
        Wakeups { sink in
            let sequence = try await make()
            let task = Task {
                do { for try await _ in sequence { sink.yield() } } catch {}
                // The source ended: the condition gets one last look.
                sink.yield()
            }
            return { task.cancel() }
        }
    }
}

/// The wake-ups of state a test owns (a collector's elements, a clock's sleepers, a child's output):
/// whoever changes the state calls ``changed()``; every wait subscribed through ``wakeups`` wakes.
public final class ChangeNotifier: Sendable {
    private let sinks = Locked<(next: UInt64, all: [UInt64: AsyncStream<Void>.Continuation])>((0, [:]))

    public init() {}

    /// Wakes every wait subscribed now.
    public func changed() {
        sinks.withLock { s in for sink in s.all.values { sink.yield() } }
    }

    /// A wake-up at each ``changed()`` from the moment the wait starts.
    public var wakeups: Wakeups {
        let sinks = self.sinks
        return Wakeups { sink in
            let id = sinks.withLock { s -> UInt64 in
                s.next += 1
                s.all[s.next] = sink
                return s.next
            }
            return { sinks.withLock { _ = $0.all.removeValue(forKey: id) } }
        }
    }
}

/// Checks `condition` now and again each time one of `sources` says the state may have changed, until it
/// holds. A condition that throws counts as not holding yet; the last error is part of the failure.
///
/// `timeout` only bounds how long a failing test waits (stretched to at least ``minimumTimeout``, as
/// ``eventually(_:timeout:_:)``'s is).
/// - Throws: ``TestKitError`` naming `what` when the timeout passes; what arming a source throws.
public func eventually(
    _ what: String, timeout: Duration = .seconds(5), wakingOn sources: Wakeups..., until condition: () async throws -> Bool
) async throws {
    let timeout = max(timeout, minimumTimeout)
    if let failure = try await waitUntil(within: timeout, wakingOn: sources, condition) {
        throw TestKitError("timed out after \(timeout) waiting until \(what)" + (failure.map { " (last error: \($0))" } ?? ""))
    }
}

/// The loop under ``eventually(_:timeout:wakingOn:until:)``, with `limit` as given: nil once `condition`
/// held, else the last error it threw (`.some(nil)` when it only answered false).
func waitUntil(within limit: Duration, wakingOn sources: [Wakeups], _ condition: () async throws -> Bool) async throws
    -> (any Error)??
{
    precondition(!sources.isEmpty, "a wait on events needs a source of them")
    // One pending wake-up is enough: the condition reads the whole state.
    let (stream, sink) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    var stops: [@Sendable () -> Void] = []
    defer {
        for stop in stops { stop() }
        sink.finish()
    }
    for source in sources { stops.append(try await source.start(sink)) }
    let deadline = Task {
        try? await Task.sleep(for: limit)
        sink.finish()
    }
    stops.append { deadline.cancel() }
    var lastError: (any Error)?
    func holds() async -> Bool {
        do { return try await condition() } catch {
            lastError = error
            return false
        }
    }
    if await holds() { return nil }
    for await _ in stream where await holds() { return nil }
    try Task.checkCancellation()
    return .some(lastError)
}

extension RemoteObject {
    /// A wake-up at each `PropertiesChanged` of this object.
    public var wakeups: Wakeups {
        let object = self
        return .each { try await object.propertiesChanged() }
    }
}

extension Connection {
    /// A wake-up at each `NameOwnerChanged` of `name`.
    public func ownerWakeups(of name: BusName) -> Wakeups {
        let connection = self
        return .each { try await connection.nameOwnerChanges(of: name) }
    }
}

extension TestProcess {
    /// A wake-up each time output from the child arrives (``OutputPump``), and when it exits (``ExitWatcher``).
    /// Both are armed before the first check.
    public var wakeups: Wakeups {
        let output = self.output.arrivals.wakeups, exit = exitWakeups
        return Wakeups { sink in
            let stopOutput = try await output.start(sink)
            let stopExit = try await exit.start(sink)
            return {
                stopOutput()
                stopExit()
            }
        }
    }

    /// A wake-up when the child exits (``ExitWatcher``); one at once when it has exited already.
    public var exitWakeups: Wakeups {
        let exit = self.exit
        return Wakeups { sink in
            let stop = try await exit.exits.wakeups.start(sink)
            if exit.hasExited { sink.yield() }
            return stop
        }
    }
}

/// Tells when a child exits: a ``DescriptorWatch`` on the child's pidfd, on a queue of its own, which
/// turns readable at the exit; the watcher then notes the exit, wakes every wait subscribed, and stops.
final class ExitWatcher: Sendable {
    /// Told once, at the exit.
    let exits = ChangeNotifier()
    private let exited = Locked(false)
    private let queue = DispatchQueue(label: "tbr.test.exit-watcher")
    /// The watch, until the exit is seen (touched on `queue` only).
    private let watch = Locked<DescriptorWatch?>(nil)

    /// Whether the exit has been seen.
    var hasExited: Bool { exited.withLock { $0 } }

    /// Starts watching `pid`, a child just spawned (not reaped yet).
    /// - Throws: ``TestKitError`` when there is no pidfd (a kernel before 5.3, glibc before 2.36: the
    ///   suite needs both, as Debian 12 has them), or it cannot be watched.
    init(_ pid: pid_t) throws {
        guard let pidfdOpen = Self.pidfdOpen else { throw TestKitError("pidfd_open is missing (glibc 2.36 or later is needed)") }
        let fd = pidfdOpen(pid, 0)
        guard fd >= 0 else { throw TestKitError("pidfd_open(\(pid)): \(Errno(errno).description)") }
        let (exits, exited, watch) = (self.exits, self.exited, self.watch)
        try queue.sync {
            do {
                let w = try DescriptorWatch(taking: fd, events: .readable, queue: queue) { _ in
                    // A pidfd is readable once the child has exited, and stays so: one report is all.
                    watch.withLock { $0?.cancel(); $0 = nil }
                    exited.withLock { $0 = true }
                    exits.changed()
                }
                w.enabled = .readable
                watch.withLock { $0 = w }
            } catch {
                throw TestKitError("cannot watch the pidfd of \(pid): \(error)")
            }
        }
    }

    /// `pidfd_open(2)` (glibc 2.36+), looked up at run time because the Glibc module does not export it.
    private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
    private static let pidfdOpen: PidfdOpen? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open")
        .map { unsafeBitCast($0, to: PidfdOpen.self) }
}
