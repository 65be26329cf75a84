@testable import RouterFleet
import DeviceModel
import OpenThreadBR
import TBRTestKit
import Testing

/// The contract between the ePSKc session machine and the router that carries out its directives,
/// checked over long seeded random runs of every input (deterministic: same seed, same run).
@Suite struct SessionMachineContractTests {
    /// SplitMix64: a small seeded generator, so that a failing run can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Plays the router: carries out directives, answering reads at random, and checks the contract.
    struct Router {
        var h = MachineHarness()
        var rng: SeededGenerator
        var wakeAt: Instant?
        var started: Set<EpskcSessionID> = []
        var ended: Set<EpskcSessionID> = []
        var counters = BorderAgentCounters()
        var issues: [String] = []

        /// A reading as an agent might answer: nothing new, a journey, a moved counter, no API, or a failure.
        mutating func answer() -> TelemetryResult {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: return .failed
            case 1: return .unavailable
            case 2:
                counters.epskcDeactivationClears &+= 1
                return reading(counters, journey(.localClose, lived: .random(in: 0...90_000, using: &rng)))
            case 3:
                counters.epskcDeactivationDisconnects &+= 1
                return reading(counters)
            case 4: return reading(BorderAgentCounters())
            default: return reading(counters)
            }
        }

        /// Carries out `directives` as ``ManagedRouter/perform(_:)`` does, checking each batch.
        /// A command's plan, as the router carries it out: its directives, then the read that goes
        /// with the command, if any (the same rules hold as for directives ending in a read).
        mutating func perform(_ plan: EpskcCommandPlan, after input: String) {
            perform(plan.before + (plan.readingFirst ? [.readTelemetry] : []), after: input)
        }

        mutating func perform(_ directives: [EpskcDirective], after input: String) {
            guard let last = directives.last else { return issues.append("\(input): no directives") }
            if directives.dropLast().contains(.readTelemetry) { issues.append("\(input): a read before other directives") }
            if !(last == .readTelemetry || last.isTimer) { issues.append("\(input): ends with neither a read nor a timer") }
            if last == .readTelemetry, !h.machine.readsTelemetry {
                issues.append("\(input): a read although telemetry is not worth reading")
            }
            for directive in directives {
                switch directive {
                case .readTelemetry:
                    let result = answer()
                    let kind = switch result {
                    case .read(let r): "read \(r.journeys.count) journeys"
                    case .unavailable: "unavailable"
                    case .failed: "failed"
                    }
                    perform(h.machine.telemetryRead(result, now: h.now), after: "telemetryRead(\(kind))")
                case .publish(.activated(let e), let record):
                    if record?.sessionID != e.sessionID { issues.append("\(input): start without its record") }
                    if !started.insert(e.sessionID).inserted { issues.append("\(input): started twice") }
                case .publish(.deactivated(let e), let record):
                    if record != nil { issues.append("\(input): end with a record") }
                    if !started.contains(e.sessionID) { issues.append("\(input): end of an unknown session") }
                    if !ended.insert(e.sessionID).inserted { issues.append("\(input): \(e.sessionID) ended twice") }
                    if e.deactivatedAt > e.detectedAt || e.deactivatedAt < e.activatedAt {
                        issues.append("\(input): end outside [start, noticed]")
                    }
                case .wake(let at):
                    wakeAt = at
                    if h.machine.session == nil { issues.append("\(input): a timer while idle") }
                case .cancelWake:
                    wakeAt = nil
                    if h.machine.session != nil { issues.append("\(input): no timer while a session is open") }
                }
            }
        }

        /// One random input.
        mutating func step() {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1:
                h.advance(.milliseconds(.random(in: 0...3_000, using: &rng)))
                if let due = wakeAt, h.now >= due { perform(h.machine.timerFired(now: h.now), after: "timerFired") }
            case 2:
                perform(h.machine.activationRequested(), after: "activationRequested")
                if Bool.random(using: &rng) {
                    let grant = EpskcSessionMachine.Grant(
                        id: .random(), validSeconds: .random(in: 1...10, using: &rng), now: h.now, wall: h.wall)
                    perform(h.machine.activationSucceeded(grant), after: "activationSucceeded")
                } else {
                    perform(h.machine.activationFailed(), after: "activationFailed")
                }
            case 3:
                perform(h.machine.deactivationRequested(retainActiveSession: .random(using: &rng)), after: "deactivationRequested")
                if Bool.random(using: &rng) {
                    let wasOpen = h.machine.session != nil
                    perform(h.machine.deactivationSucceeded(now: h.now), after: "deactivationSucceeded")
                    if wasOpen, h.machine.session != nil, !h.machine.readsTelemetry {
                        issues.append("a deactivate left a session open without telemetry to follow it")
                    }
                } else {
                    perform(h.machine.deactivationFailed(), after: "deactivationFailed")
                }
            case 4: perform(h.machine.agentVanished(now: h.now), after: "agentVanished")
            case 5:
                let instance = [":1.5", ":1.6"].randomElement(using: &rng)!
                perform(h.machine.agentAppeared(instance: instance, now: h.now), after: "agentAppeared")
            case 6: perform(h.machine.serviceWithdrawn(at: h.now, now: h.now), after: "serviceWithdrawn")
            case 8:
                // Someone else's key (or a late announcement of ours).
                if Bool.random(using: &rng) { counters.epskcActivations &+= 1 }
                let key = EpskcSessionMachine.Grant(id: .random(), validSeconds: 0, now: h.now, wall: h.wall)
                perform(h.machine.serviceAppeared(key, now: h.now), after: "serviceAppeared")
            case 7:
                let record = h.machine.record ?? EpskcSessionRecord(
                    deviceID: "wpan0", sessionID: .random(), activatedAt: h.wall.advanced(by: .seconds(-2)),
                    validDurationSeconds: 5, agentInstance: ":1.5", telemetryBaseline: counters.serialized())
                do {
                    let directives = try h.machine.restore(record, now: h.now, wall: h.wall)
                    started.insert(record.sessionID)
                    perform(directives, after: "restore")
                } catch {
                    issues.append("restoring the open session again was refused")
                }
            default:
                // Time runs out: every session open must end by its deadline plus the grace.
                if let session = h.machine.session, let due = wakeAt {
                    let limit = session.deadline.advanced(by: machineTiming.deadlineGrace)
                    if due > limit { issues.append("the next wake-up is after the deadline and its grace") }
                }
            }
        }
    }

    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func directivesKeepTheirContractOverLongRandomRuns(seed: UInt64) {
        var router = Router(rng: SeededGenerator(state: seed))
        for _ in 0..<2_000 { router.step() }
        if let first = router.issues.first {
            Issue.record("seed \(seed): \(router.issues.count) breaches of the contract, the first: \(first)")
        }
        #expect(router.ended.isSubset(of: router.started))
        #expect(router.ended.count >= 10, "seed \(seed) ended only \(router.ended.count) sessions: the run explores too little")
    }
}
