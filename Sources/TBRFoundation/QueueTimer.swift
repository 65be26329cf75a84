public import Dispatch

/// A Dispatch timer confined to one serial queue, armed and disarmed there: the one Dispatch timer of
/// the C event loops tbrd drives on a queue (libdbus's timeouts, Avahi's timeouts, the D-Bus call
/// registry's expiry). Async code waits on a ``TBRClock`` instead (``Alarm``, ``TimeLimit``).
///
/// The source is made active at once and never suspended: disarming schedules it for the distant
/// future, so no suspend and resume counts can go wrong. Every method is called on the queue; the
/// handler runs there. ``cancel()`` (or `deinit`) ends it for good.
public final class QueueTimer {
    private let source: any DispatchSourceTimer
    /// Whether the timer is set to fire (a one-shot one is disarmed as it fires).
    public private(set) var isArmed = false
    private var repeats = false

    /// A disarmed timer on `queue` whose firings call `handler` (on `queue`).
    public init(queue: DispatchQueue, handler: @escaping () -> Void) {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .distantFuture, leeway: .never)
        source.activate()
        source.setEventHandler { [weak self] in
            guard let self, self.isArmed else { return }
            if !self.repeats { self.disarm() }
            handler()
        }
    }

    deinit { source.cancel() }

    /// Fires once after `delay` (at once when it is not positive), in place of any time set before.
    public func arm(after delay: Duration, leeway: Duration = .zero) {
        isArmed = true
        repeats = false
        source.schedule(deadline: .now() + Self.interval(delay), leeway: Self.interval(leeway))
    }

    /// Fires once at `instant` of the continuous clock (at once when it has passed).
    public func arm(at instant: ContinuousClock.Instant, leeway: Duration = .zero) {
        arm(after: instant - ContinuousClock.now, leeway: leeway)
    }

    /// Fires every `interval`, the first time one `interval` from now.
    public func arm(every interval: Duration) {
        isArmed = true
        repeats = true
        let step = Self.interval(interval)
        source.schedule(deadline: .now() + step, repeating: step)
    }

    /// Fires no more until armed again.
    public func disarm() {
        isArmed = false
        source.schedule(deadline: .distantFuture, leeway: .never)
    }

    /// Ends the timer for good.
    public func cancel() {
        isArmed = false
        source.cancel()
    }

    /// `duration` as Dispatch's nanoseconds, from 0 to `Int.max`.
    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        guard duration > .zero else { return .nanoseconds(0) }
        let (s, atto) = duration.components
        let nanos = s.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanos.overflow else { return .nanoseconds(.max) }
        let sum = nanos.partialValue.addingReportingOverflow(atto / 1_000_000_000)
        return .nanoseconds(sum.overflow ? .max : Int(sum.partialValue))
    }
}
