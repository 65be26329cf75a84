/// Unix signals as an `AsyncSequence`: each trapped signal that arrives is one element.
///
/// ``init(trapping:)`` traps the signals at once: their default action no longer runs (so `SIGTERM`
/// no longer kills the process) and they are read by `DispatchSource.makeSignalSource` sources instead.
/// Trapping ends, and the previous dispositions come back, when ``cancel()`` is called or when the last
/// copy of the sequence and its iterator are gone. Trapping the same signal in several sequences is
/// fine: each sees every arrival.
///
/// Buffering: the newest 16 arrivals are kept for a consumer that is behind; signals that arrive
/// together may be merged into one element, as the kernel merges pending signals.
///
/// Iterate a sequence once (it is one stream with one consumer).
public struct UnixSignals: AsyncSequence, Sendable {
    /// One arrival.
    public typealias Element = UnixSignal
    /// Signal streams never fail.
    public typealias Failure = Never

    private let stream: AsyncStream<UnixSignal>
    private let trap: SignalTrap?

    /// Traps `signals` now (see the type's description). Call ``ready()`` before relying on delivery.
    public init(trapping signals: [UnixSignal]) {
        let (stream, continuation) = AsyncStream.makeStream(of: UnixSignal.self, bufferingPolicy: .bufferingNewest(16))
        let trap = SignalTrap(signals: signals, continuation: continuation)
        continuation.onTermination = { [weak trap] _ in trap?.cancel() }
        self.stream = stream
        self.trap = trap
    }

    /// Signals that come from `stream` rather than from the kernel: for tests and for programs that
    /// forward signals from elsewhere. Nothing is trapped.
    public init(_ stream: AsyncStream<UnixSignal>) {
        self.stream = stream
        self.trap = nil
    }

    /// Returns once the kernel delivers the trapped signals to this sequence (libdispatch registers its
    /// sources asynchronously; a signal sent before that is ignored, not delivered).
    public func ready() async {
        await trap?.registered()
    }

    /// Stops trapping: the previous dispositions come back (once no other sequence traps the same
    /// signals) and iteration ends. Idempotent.
    public func cancel() {
        trap?.cancel()
    }

    /// An iterator over the arrivals (make one: the sequence has one consumer).
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), trap: trap)
    }

    /// Iterates the arrivals; keeps the trap alive while it exists.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<UnixSignal>.Iterator
        let trap: SignalTrap?

        /// The next arrival, or nil once trapping has ended or the task is cancelled.
        public mutating func next() async -> UnixSignal? {
            await base.next()
        }
    }
}
