internal import Dispatch

/// The one serial executor of a connection: a Dispatch queue that runs both the connection actor's jobs
/// and libdbus's watch, timeout and dispatch callbacks, so every libdbus call for a connection happens on
/// one queue and the actor can `assumeIsolated` inside C callbacks.
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
