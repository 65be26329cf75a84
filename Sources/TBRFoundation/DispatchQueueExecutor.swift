public import Dispatch

/// A serial executor backed by a Dispatch queue of its own. An actor that returns it as its
/// `unownedExecutor` runs on that queue, so blocking C calls (SQLite's file I/O, libdbus) never occupy
/// a thread of the cooperative pool, and C callbacks delivered on the queue can `assumeIsolated`.
public final class DispatchQueueExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable, thread-safe DispatchQueue.
    /// The queue the executor's jobs run on.
    public let queue: DispatchQueue

    /// An executor on a new serial queue named `label`.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

/// A task executor on one serial queue: the tasks that prefer it run their nonisolated code one job at a
/// time, in the order the jobs were enqueued.
public final class SerialTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable, thread-safe DispatchQueue.
    private let queue: DispatchQueue

    /// An executor on a new serial queue named `label`.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
