internal import Dispatch

/// The serial executor of one database connection: a Dispatch queue of its own, so SQLite's blocking
/// file I/O and lock waits (up to the busy timeout) never occupy a thread of the cooperative pool.
final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable, thread-safe DispatchQueue.
    let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
