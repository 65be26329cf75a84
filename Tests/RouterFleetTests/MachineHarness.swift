@testable import RouterFleet
import DeviceModel
import OpenThreadBR
import TBRFoundation
import TBRTestKit
import Testing

typealias Instant = ContinuousClock.Instant
typealias Verdict = EpskcReasonInference.Verdict

/// The service's default timing: a poll every 250 ms while a key is active, 250 ms of grace after the
/// deadline.
let machineTiming = EpskcSessionMachine.Timing(pollInterval: .milliseconds(250), deadlineGrace: .milliseconds(250))

/// Border-agent counters of an agent that has started three keys, changed by `change`.
func counters(_ change: (inout BorderAgentCounters) -> Void = { _ in }) -> BorderAgentCounters {
    var c = BorderAgentCounters()
    c.epskcActivations = 3
    change(&c)
    return c
}

/// A completed ePSKc journey: a key that lived `ms` milliseconds by the agent's clock and ended for `reason`.
func journey(_ reason: EpskcDeactivationReason, lived ms: UInt32 = 1000) -> EpskcJourney {
    var j = EpskcJourney()
    j.activated = 5000
    j.deactivated = 5000 + ms
    j.deactivationReason = reason
    return j
}

/// What a `TelemetryData` read answers: `counters` and the journeys completed since the last read.
func reading(_ counters: BorderAgentCounters = counters(), _ journeys: EpskcJourney...) -> TelemetryResult {
    .read(TelemetryReading(counters: counters, journeys: journeys))
}

extension Array where Element == EpskcDirective {
    /// The events these directives publish, in order.
    var events: [EpskcEvent] { compactMap(\.published) }
    /// The one end event published, if any.
    var ended: ThreadNetworkManagementTrait.EpskcModeDeactivatedEvent? { events.compactMap(\.deactivated).first }
    /// The one start event published, if any.
    var started: ThreadNetworkManagementTrait.EpskcModeActivatedEvent? { events.compactMap(\.activated).first }
}

/// One router's ``EpskcSessionMachine`` on a manual clock, with the steps ``ManagedRouter`` takes around
/// it. Time moves only when a test says so.
struct MachineHarness {
    let clock = ManualClock()
    var machine = EpskcSessionMachine(deviceID: "wpan0", timing: machineTiming)

    var now: Instant { clock.now() }
    var wall: WallTime { WallTime(secondsSinceEpoch: clock.wallTime()) }

    /// The instant `duration` from now.
    func later(_ duration: Duration) -> Instant { now.advanced(by: duration) }

    /// Moves the clock forward.
    func advance(_ duration: Duration) { clock.advance(by: duration) }

    /// A harness whose agent is on the bus as `instance` (the machine knows nothing about its telemetry yet).
    init(agent instance: String? = ":1.5") {
        if let instance { #expect(machine.agentAppeared(instance: instance, now: clock.now()) == [.cancelWake]) }
    }

    /// Activates a key of `seconds` the way ``ManagedRouter`` does, answering the baseline read (if the
    /// machine asks for one) with `baseline`, and checks each step's directives.
    /// - Returns: the start event the machine must have published.
    @discardableResult
    mutating func open(
        seconds: Int = 60, baseline: TelemetryResult = reading(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> ThreadNetworkManagementTrait.EpskcModeActivatedEvent {
        let wantsRead = machine.readsTelemetry
        let first = machine.activationRequested()
        if wantsRead {
            #expect(first == EpskcCommandPlan(before: [], readingFirst: true), sourceLocation: sourceLocation)
            #expect(machine.telemetryRead(baseline, now: now) == [.cancelWake], sourceLocation: sourceLocation)
        } else {
            #expect(first == EpskcCommandPlan(before: [.cancelWake], readingFirst: false), sourceLocation: sourceLocation)
        }
        let grant = EpskcSessionMachine.Grant(id: .random(), validSeconds: seconds, now: now, wall: wall)
        let directives = machine.activationSucceeded(grant)
        let next = machine.readsTelemetry ? later(.milliseconds(250)) : later(.seconds(seconds) + .milliseconds(250))
        let start = ThreadNetworkManagementTrait.EpskcModeActivatedEvent(
            deviceID: "wpan0", sessionID: grant.id, activatedAt: grant.wall, validDurationSeconds: seconds)
        #expect(
            directives == [.publish(.activated(start), restoreRecord: machine.record), .wake(at: next)],
            sourceLocation: sourceLocation)
        return start
    }

    /// A poll at the current instant (the timer the machine asked for fired), answered with `result`.
    /// - Returns: the directives after the read (or the timer's, when it did not ask for one).
    mutating func poll(_ result: TelemetryResult) -> [EpskcDirective] {
        let fired = machine.timerFired(now: now)
        guard fired == [.readTelemetry] else { return fired }
        return machine.telemetryRead(result, now: now)
    }
}
