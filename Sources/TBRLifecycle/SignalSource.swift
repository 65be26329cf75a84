/// Where a ``ServiceGroup`` gets its signals: the seam between the group and the kernel.
///
/// ``ProcessSignalSource`` traps the process's real signals; tests pass a source that yields signals
/// by hand (``UnixSignals/init(_:)``), so they can run groups in parallel without signalling the test
/// process.
public protocol SignalSource: Sendable {
    /// Starts trapping `signals` and returns their arrivals, once delivery is in effect.
    func trap(_ signals: [UnixSignal]) async -> UnixSignals
}

/// The process's real signals, through ``UnixSignals``.
public struct ProcessSignalSource: SignalSource {
    /// The process's signals.
    public init() {}

    /// Traps `signals` with ``UnixSignals`` and waits until delivery is in effect.
    public func trap(_ signals: [UnixSignal]) async -> UnixSignals {
        let trapped = UnixSignals(trapping: signals)
        await trapped.ready()
        return trapped
    }
}
