import Synchronization
import TBRFoundation

/// The graceful-shutdown notification of one service: the group triggers it; the service's code learns
/// of it through the task-local ``current`` (inherited by child tasks).
final class GracefulShutdownToken: Sendable {
    private struct State {
        var triggered = false
        var handlers: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// The token of the service the current task belongs to, if it runs in a ``ServiceGroup``.
    @TaskLocal static var current: GracefulShutdownToken?

    /// Whether the shutdown was triggered.
    var isTriggered: Bool { state.withLock { $0.triggered } }

    /// Triggers the shutdown: every registered handler runs once, on the caller's thread. Idempotent.
    func trigger() {
        let handlers = state.withLock { s -> [@Sendable () -> Void] in
            guard !s.triggered else { return [] }
            s.triggered = true
            defer { s.handlers = [:] }
            return s.handlers.sorted { $0.key < $1.key }.map(\.value)
        }
        handlers.forEach { $0() }
    }

    /// Registers `handler`; returns its id, or nil (and runs it now) when already triggered.
    func add(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
        let id = state.withLock { s -> UInt64? in
            guard !s.triggered else { return nil }
            s.nextID += 1
            s.handlers[s.nextID] = handler
            return s.nextID
        }
        if id == nil { handler() }
        return id
    }

    /// Unregisters a handler (after its operation ended).
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }
}

/// Runs `operation`, calling `handler` once if the current service is asked to shut down gracefully
/// while it runs (at once if it already was). Outside a ``ServiceGroup`` the handler never runs.
///
/// The handler runs on the thread that triggered the shutdown: keep it short (finish a stream, resume a
/// continuation, set a flag).
/// - Throws: what `operation` threw.
public func withGracefulShutdownHandler<T>(
    operation: () async throws -> T, onGracefulShutdown handler: @escaping @Sendable () -> Void
) async rethrows -> T {
    guard let token = GracefulShutdownToken.current, let id = token.add(handler) else {
        return try await operation()
    }
    defer { token.remove(id) }
    return try await operation()
}

/// Suspends until the current service is asked to shut down gracefully.
///
/// Outside a ``ServiceGroup`` it waits until the task is cancelled.
/// - Throws: `CancellationError` when the task is cancelled first.
public func gracefulShutdown() async throws {
    let waiter = Latch(count: 1)
    try await withTaskCancellationHandler {
        try await withGracefulShutdownHandler {
            await waiter.wait()
            try Task.checkCancellation()
        } onGracefulShutdown: {
            waiter.open()
        }
    } onCancel: {
        waiter.open()
    }
}

/// Runs `operation` in a child task that is cancelled when the current service is asked to shut down
/// gracefully: for code that stops on cancellation but should also stop on a graceful shutdown.
/// - Returns: what `operation` returned.
/// - Throws: what `operation` threw (typically `CancellationError` after a shutdown).
public func cancelWhenGracefulShutdown<T: Sendable>(
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await gracefulShutdown()
            return nil
        }
        defer { group.cancelAll() }
        while let next = try await group.next() {
            if let value = next { return value }
            group.cancelAll()  // shutdown: cancel the operation and wait for its outcome
        }
        throw CancellationError()
    }
}

extension Task where Success == Never, Failure == Never {
    /// Whether the service the current task belongs to has been asked to shut down gracefully.
    public static var isShuttingDownGracefully: Bool {
        GracefulShutdownToken.current?.isTriggered ?? false
    }
}
