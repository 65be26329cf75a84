package import OpenThreadBR
package import OpenThreadREST

/// What successive reads of an agent's `GET /node/ba-epskc/key` say about its keys, in the terms of the
/// telemetry ``EpskcSessionMachine`` reads from a D-Bus agent: REST has no counters and no journeys, only
/// the key's state now (`../shared/otbr/rest.md`).
///
/// A key whose state was seen `connected` or `accepted` was used: a commissioner completed the DTLS
/// handshake with it (the agent keeps showing `connected` until 2 s after the session closes, so reads
/// well under 2 s apart see it). A read that finds no key (`stopped`, `disabled`) reports the end as a
/// completed journey: `REMOTE_CLOSE` (→ `keyUsed`) when use was seen since the last end, else with no
/// reason, which leaves the verdict to the deadline (`expired` at or after it, `unspecified`/`endedEarly`
/// before). The machine only asks while a key is active or being started or stopped, and ignores a
/// journey when no session is open, so an end reported twice ends nothing twice.
///
/// Each reading also carries counters that say only whether a key is active now (one activation, or
/// none): enough for the machine's "may a key be active" check when a poll saw someone else's key, so
/// that a key seen just before tbrd deleted it opens no session after its end.
///
/// Pure: no clock, no I/O.
package struct RESTKeyEvidence: Sendable {
    /// Whether a read since the last end saw the key `connected` or `accepted`.
    private(set) var sawUse = false

    /// Takes in one read and says what it shows, as the machine reads telemetry.
    package mutating func reading(after read: RESTEpskcKeyState) -> TelemetryReading {
        switch read.state {
        case .started:
            return TelemetryReading(counters: Self.counters(keyActive: true))
        case .connected, .accepted:
            sawUse = true
            return TelemetryReading(counters: Self.counters(keyActive: true))
        case .stopped, .disabled:
            var journey = EpskcJourney()
            journey.deactivationReason = sawUse ? .remoteClose : nil
            sawUse = false
            return TelemetryReading(counters: Self.counters(keyActive: false), journeys: [journey])
        }
    }

    /// Takes in a read made only to ask whether a key is active (``RESTChannel/keyIsActive()``): use it
    /// shows is kept, but an end is left for the machine's own read to report.
    package mutating func note(_ read: RESTEpskcKeyState) {
        if read.state == .connected || read.state == .accepted { sawUse = true }
    }

    /// Counters that say whether a key is active, and nothing else.
    package static func counters(keyActive: Bool) -> BorderAgentCounters {
        var c = BorderAgentCounters()
        c.epskcActivations = keyActive ? 1 : 0
        return c
    }
}
