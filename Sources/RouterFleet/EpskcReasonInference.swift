package import DeviceModel
package import OpenThreadBR

/// The reason an ePSKc session ended, inferred exactly as ARCHITECTURE "ePSKc lifecycle" orders it:
///
/// 1. tbrd deactivated it (for any caller) → `cancelled`.
/// 2. The router's telemetry says why: the completed journey's deactivation reason, else the counter
///    that moved since activation: a secure session succeeded or the commissioner closed it → `keyUsed`;
///    ePSKc timeout → `expired`; local close → `cancelled`; max attempts → `cancelled` with detail
///    `tooManyAttempts`.
/// 3. It ended at or after the deadline → `expired`.
/// 4. It ended early and nothing says why → `unspecified` with detail `endedEarly`. Never guess.
///
/// Pure: no clock, no I/O.
package enum EpskcReasonInference {
    package typealias Reason = ThreadNetworkManagementTrait.EpskcModeDeactivationReason
    package typealias Detail = ThreadNetworkManagementTrait.EpskcModeDeactivationDetail

    /// A reason with its detail.
    package struct Verdict: Hashable, Sendable {
        var reason: Reason
        var detail: Detail?
        init(_ reason: Reason, _ detail: Detail? = nil) {
            self.reason = reason
            self.detail = detail
        }
    }

    /// Applies the four rules in order.
    /// - Parameters:
    ///   - deactivatedByService: rule 1, our own deactivate call ended the session.
    ///   - telemetry: rule 2, what the telemetry said (``fromTelemetry(journey:baseline:current:)``).
    ///   - endedAtOrAfterDeadline: rule 3.
    package static func infer(deactivatedByService: Bool, telemetry: Verdict?, endedAtOrAfterDeadline: Bool) -> Verdict {
        if deactivatedByService { return Verdict(.cancelled) }
        if let telemetry { return telemetry }
        if endedAtOrAfterDeadline { return Verdict(.expired) }
        return Verdict(.unspecified, .endedEarly)
    }

    /// Rule 2: the journey's reason if it has a known one, else the counters that moved since
    /// `baseline`, checked in the rule's order; nil when telemetry says nothing (no journey reason, no
    /// counters, counters reset by a restart, or no counter moved).
    package static func fromTelemetry(
        journey: EpskcJourney?, baseline: BorderAgentCounters?, current: BorderAgentCounters?
    ) -> Verdict? {
        if let reason = journey?.deactivationReason, let verdict = fromJourney(reason) { return verdict }
        guard let baseline, let current, !current.wasReset(since: baseline) else { return nil }
        if current.epskcSecureSessionSuccesses > baseline.epskcSecureSessionSuccesses
            || current.epskcDeactivationDisconnects > baseline.epskcDeactivationDisconnects
        {
            return Verdict(.keyUsed)
        }
        if current.epskcDeactivationTimeouts > baseline.epskcDeactivationTimeouts { return Verdict(.expired) }
        if current.epskcDeactivationClears > baseline.epskcDeactivationClears { return Verdict(.cancelled) }
        if current.epskcDeactivationMaxAttempts > baseline.epskcDeactivationMaxAttempts {
            return Verdict(.cancelled, .tooManyAttempts)
        }
        return nil
    }

    /// A completed journey's reason. The key is single use, so a session that ended by the commissioner
    /// closing it, by a session error or by a session timeout used the key.
    package static func fromJourney(_ reason: EpskcDeactivationReason) -> Verdict? {
        switch reason {
        case .remoteClose, .sessionError, .sessionTimeout: Verdict(.keyUsed)
        case .epskcTimeout: Verdict(.expired)
        case .localClose: Verdict(.cancelled)
        case .maxAttempts: Verdict(.cancelled, .tooManyAttempts)
        case .unknown, .other: nil
        }
    }
}
