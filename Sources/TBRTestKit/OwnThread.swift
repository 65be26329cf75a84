import Foundation

/// Runs `body` on a thread of its own and returns what it returns, without holding a thread of Swift's
/// concurrency pool: for blocking calls (``BlockingConnection``, a socket's `accept`) whose answer may
/// need the pool, from a server in the same process or from the test itself. Record issues after it
/// returns, not inside `body`: the thread runs outside the test's task.
public func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
