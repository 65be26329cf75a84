import TBRLifecycle
import Testing

@Suite("Graceful-shutdown helpers outside a group")
struct GracefulShutdownTests {
    @Test("outside a group the handler never runs and nothing is shutting down")
    func outsideGroup() async throws {
        let ran = await withGracefulShutdownHandler {
            Task.isShuttingDownGracefully ? "shutting down" : "running"
        } onGracefulShutdown: {
            Issue.record("the handler ran outside a service group")
        }
        #expect(ran == "running")
    }

    @Test("gracefulShutdown() outside a group waits until the task is cancelled")
    func waitsForCancellation() async throws {
        // Outside a group no shutdown ever comes: the only way out is cancellation (a return would be a
        // success here, whenever the task ran).
        let task = Task { try await gracefulShutdown() }
        await Task.yield()
        task.cancel()
        let result = try await withTimeout { await task.result }
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test("cancelWhenGracefulShutdown returns the operation's value when no shutdown comes")
    func cancelWhenGracefulShutdownPassesThrough() async throws {
        let value = try await cancelWhenGracefulShutdown { 42 }
        #expect(value == 42)
        await #expect(throws: CancellationError.self) {
            try await cancelWhenGracefulShutdown { () async throws -> Int in throw CancellationError() }
        }
    }
}
