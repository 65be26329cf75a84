import Dispatch
import Synchronization
import TBRFoundation

/// The owner of the Dispatch signal sources behind one ``UnixSignals``: it takes the signals' disposition
/// (``SignalDisposition``) and creates the sources when made, and cancels them, gives the disposition
/// back and ends the stream in ``cancel()`` or `deinit`.
final class SignalTrap: Sendable {
    private struct State {
        var sources: [any DispatchSourceSignal]
        var cancelled = false
    }

    let signals: [UnixSignal]
    private let state: Locked<State>
    private let registration: Latch
    private let continuation: AsyncStream<UnixSignal>.Continuation

    init(signals requested: [UnixSignal], continuation: AsyncStream<UnixSignal>.Continuation) {
        var signals: [UnixSignal] = []
        for s in requested where !signals.contains(s) { signals.append(s) }
        self.signals = signals
        self.continuation = continuation
        let registration = Latch(count: signals.count)
        self.registration = registration
        SignalDisposition.acquire(signals)
        let queue = DispatchQueue(label: "tbrd.signals")
        var sources: [any DispatchSourceSignal] = []
        for sig in signals {
            let source = DispatchSource.makeSignalSource(signal: sig.rawValue, queue: queue)
            source.setEventHandler { continuation.yield(sig) }
            source.setRegistrationHandler { registration.countDown() }
            sources.append(source)
        }
        sources.forEach { $0.resume() }
        state = Locked(State(sources: sources))
    }

    deinit { cancel() }

    /// Waits until every source is registered with the kernel (or the trap is cancelled).
    func registered() async {
        await registration.wait()
    }

    /// Cancels the sources, restores the dispositions and finishes the stream. Idempotent.
    func cancel() {
        let wasCancelled = state.withLock { s in
            if s.cancelled { return true }
            s.cancelled = true
            for source in s.sources { source.cancel() }
            s.sources = []
            return false
        }
        guard !wasCancelled else { return }
        SignalDisposition.release(signals)
        registration.open()
        continuation.finish()
    }
}
