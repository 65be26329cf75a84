package import OpenThreadBR

/// What one read of otbr-agent's `TelemetryData` said about the border agent: its counters and the
/// ePSKc journeys completed since the previous read (the agent reports each journey once).
package struct TelemetryReading: Hashable, Sendable {
    package var counters: BorderAgentCounters?
    package var journeys: [EpskcJourney]

    package init(counters: BorderAgentCounters?, journeys: [EpskcJourney] = []) {
        self.counters = counters
        self.journeys = journeys
    }
}

/// The outcome of trying to read `TelemetryData`.
package enum TelemetryResult: Hashable, Sendable {
    /// The agent answered.
    case read(TelemetryReading)
    /// The agent has no telemetry API (`NotImplemented`): built without `OTBR_ENABLE_TELEMETRY_DATA_API`.
    case unavailable
    /// The read failed for another reason (the agent did not answer); nothing is learnt.
    case failed

    /// The reading, if the agent answered.
    package var reading: TelemetryReading? {
        if case .read(let r) = self { r } else { nil }
    }
}

extension BorderAgentCounters {
    /// Whether any counter is lower than in `earlier`: the agent restarted in between (counters live in
    /// memory and start again from zero).
    package func wasReset(since earlier: BorderAgentCounters) -> Bool {
        let all: [KeyPath<BorderAgentCounters, UInt32>] = [
            \.epskcActivations, \.epskcDeactivationClears, \.epskcDeactivationTimeouts, \.epskcDeactivationMaxAttempts,
            \.epskcDeactivationDisconnects, \.epskcInvalidBaStateErrors, \.epskcInvalidArgsErrors,
            \.epskcStartSecureSessionErrors, \.epskcSecureSessionSuccesses, \.epskcSecureSessionFailures,
            \.epskcCommissionerPetitions, \.pskcSecureSessionSuccesses, \.pskcSecureSessionFailures,
            \.pskcCommissionerPetitions, \.mgmtActiveGets, \.mgmtPendingGets,
        ]
        return all.contains { self[keyPath: $0] < earlier[keyPath: $0] }
    }

    /// Whether a counter that moves when an ePSKc key ends moved since `earlier`: clears (local stop or
    /// session timeout), timeouts, max attempts, disconnects, or a session error.
    package func keyEnded(since earlier: BorderAgentCounters) -> Bool {
        epskcDeactivationClears != earlier.epskcDeactivationClears
            || epskcDeactivationTimeouts != earlier.epskcDeactivationTimeouts
            || epskcDeactivationMaxAttempts != earlier.epskcDeactivationMaxAttempts
            || epskcDeactivationDisconnects != earlier.epskcDeactivationDisconnects
            || epskcStartSecureSessionErrors != earlier.epskcStartSecureSessionErrors
    }

    /// Whether a key may be active: more activations than keys that ended by clear, timeout, max
    /// attempts or disconnect. (A session error ends a key too, but its counter also counts starts that
    /// failed, so it cannot be subtracted: a key ended that way still looks possibly active.)
    package var mayHaveActiveKey: Bool {
        UInt64(epskcActivations)
            > UInt64(epskcDeactivationClears) + UInt64(epskcDeactivationTimeouts) + UInt64(epskcDeactivationMaxAttempts)
            + UInt64(epskcDeactivationDisconnects)
    }
}
