package import DeviceModel

/// What ``EpskcSessionMachine`` asks its driver (``ManagedRouter``) to do: the machine decides, the
/// driver only carries the directives out, in order, and feeds what it learns back in.
///
/// Every handler of the machine returns either directives ending in ``readTelemetry`` (it awaits the
/// reading) or directives ending in a timer directive (``wake(at:)`` or ``cancelWake``), so the driver
/// always knows when the machine wants to look again.
package enum EpskcDirective: Hashable, Sendable {
    /// Read the agent's `TelemetryData` and feed the outcome to ``EpskcSessionMachine/telemetryRead(_:now:)``
    /// before anything else; its directives come next.
    case readTelemetry
    /// Journal `event` (with `restoreRecord`, for an activation: what recovers the session after a
    /// restart), then yield it to the router's and the service's streams.
    case publish(EpskcEvent, restoreRecord: EpskcSessionRecord?)
    /// Call ``EpskcSessionMachine/timerFired(now:)`` at `instant`; replaces any earlier wake-up.
    case wake(at: ContinuousClock.Instant)
    /// Nothing is due: no session is open, so there is no timer and no telemetry poll until the next input.
    case cancelWake
}

extension EpskcDirective {
    /// The event to publish, if this is ``publish(_:restoreRecord:)``.
    package var published: EpskcEvent? {
        if case .publish(let event, _) = self { event } else { nil }
    }

    /// Whether this is a timer directive (``wake(at:)`` or ``cancelWake``).
    package var isTimer: Bool {
        switch self {
        case .wake, .cancelWake: true
        case .readTelemetry, .publish: false
        }
    }
}

/// How an ePSKc command goes to the agent, as the machine decides it: ``before`` is carried out first,
/// then the command is sent, in one exchange with a telemetry read ahead of it when ``readingFirst``
/// (the read's outcome goes to ``EpskcSessionMachine/telemetryRead(_:now:)`` before the command's).
package struct EpskcCommandPlan: Hashable, Sendable {
    /// Directives to carry out before the command.
    package var before: [EpskcDirective]
    /// Whether the agent's telemetry is read just before the command, in the same exchange.
    package var readingFirst: Bool
}
