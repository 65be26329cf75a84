import MeshCoP
import TBRDocuments
import TBRFoundation
import Testing

@testable import NetworkMigration

/// The migration machine driven by hand, input by input, at explicit wall times: what each router's step
/// becomes, when the structure's lock is released, and when the machine wants to look again.
@Suite struct MigrationMachineTests {
    static let source = try! OperationalDataset(bytes: try! Hex.decode(demoDataset))
    /// Network B: another Extended PAN ID (and key), on channel 20.
    static let target: OperationalDataset = {
        var b = source
        b.extendedPANID = ExtendedPANID(0xdead_beef_0000_0001)
        b.channel = Channel(20)
        b.activeTimestamp = Timestamp(seconds: 5)
        return b
    }()
    static let t0 = 1_800_000_000.0

    /// A merge of routers `r1` (REST, 30 s) and `r2` (D-Bus, the agent's 300 s) from A onto B, planned at t0.
    static func plan() -> Migration {
        MigrationPlanner.plan(
            kind: .merge, target: target,
            routers: [.init(id: "r1", transport: "rest", online: true, network: source), .init(id: "r2", transport: "dbus", online: true, network: source)],
            delaySeconds: 30, now: t0, detail: "test")
    }

    /// The machine once both routers took the pending dataset (their Pending Timestamp t0).
    static func started() -> (MigrationMachine, [MigrationDirective]) {
        var machine = MigrationMachine()
        let sends = machine.start(plan(), target: target, now: t0)
        #expect(sends == [.send(router: "r1", dataset: target, delayMs: 30_000), .send(router: "r2", dataset: target, delayMs: 300_000)])
        #expect(machine.sent(router: "r1", delayMs: 30_000, pendingTimestamp: UInt64(t0), now: t0).isEmpty, "recorded once every send answered")
        let directives = machine.sent(router: "r2", delayMs: 300_000, pendingTimestamp: UInt64(t0), now: t0)
        return (machine, directives)
    }

    static func step(_ machine: MigrationMachine, _ router: String) -> MigrationStep? {
        machine.current?.steps.first { $0.router == router }
    }

    static func recorded(_ directives: [MigrationDirective]) -> (Migration, running: Bool)? {
        for case .record(let m, let running) in directives { return (m, running) }
        return nil
    }

    @Test func startedMigrationFollowsEachRouterRecordsItselfAndWakesAtTheFirstDeadlinePlusGrace() throws {
        let (machine, directives) = Self.started()
        #expect(directives.contains(.follow(router: "r1", startedAt: Self.t0)))
        #expect(directives.contains(.follow(router: "r2", startedAt: Self.t0)))
        let (row, running) = try #require(Self.recorded(directives))
        #expect(running && row.state == .pending && row.dueAt == Self.t0 + 300)
        #expect(directives.last == .wake(at: Self.t0 + 30 + MigrationPlanner.graceSeconds))
        #expect(machine.follows(router: "r1", startedAt: Self.t0))
        #expect(!machine.follows(router: "r1", startedAt: Self.t0 - 1), "a watch of another migration is not this one's")
    }

    @Test func routerThatCouldNotBeSentFailsAndTheOthersGoOn() {
        var machine = MigrationMachine()
        _ = machine.start(Self.plan(), target: Self.target, now: Self.t0)
        _ = machine.notSent(router: "r1", reason: "the agent is offline", now: Self.t0)
        let directives = machine.sent(router: "r2", delayMs: 300_000, pendingTimestamp: nil, now: Self.t0)
        #expect(Self.step(machine, "r1")?.outcome == .failed)
        #expect(Self.step(machine, "r1")?.detail.hasPrefix("not sent: the agent is offline; the router stays on ") == true)
        #expect(!directives.contains(.follow(router: "r1", startedAt: Self.t0)))
        #expect(machine.running?.state == .pending)
    }

    /// The deadline verdict through the timer: a router that has not shown the target by its delay plus
    /// the grace is read and judged, with the reason the reading gives; the machine then wakes for the next.
    @Test func deadlineVerdictComesThroughTheTimerAndTheReading() throws {
        var (machine, directives) = Self.started()
        guard case .wake(let first)? = directives.last else { Issue.record("no wake-up: \(directives)"); return }
        #expect(machine.timerFired(now: first - 1) == [.wake(at: first)], "nothing is due a second early")
        let due = machine.timerFired(now: first)
        #expect(due == [.read(router: "r1", startedAt: Self.t0), .wake(at: Self.t0 + 300 + MigrationPlanner.graceSeconds)])
        #expect(machine.timerFired(now: first + 1) == [.wake(at: Self.t0 + 300 + MigrationPlanner.graceSeconds)], "a router being read is read once")
        var replaced = Self.target
        replaced.pendingTimestamp = Timestamp(seconds: UInt64(Self.t0) + 7)
        let judged = machine.routerRead(router: "r1", startedAt: Self.t0, online: true, active: Self.source, pending: replaced, now: first)
        let step = try #require(Self.step(machine, "r1"))
        #expect(step.outcome == .failed)
        #expect(step.detail.contains("another pending dataset, Pending Timestamp \(UInt64(Self.t0) + 7), replaced tbrd's"))
        #expect(Self.recorded(judged)?.running == true, "r2 is still pending: the lock is kept")
        #expect(judged.last == .wake(at: Self.t0 + 300 + MigrationPlanner.graceSeconds))
        // r2 shows the target: the migration ends failed (r1), the lock is released, no timer is left.
        let end = machine.networkSeen(router: "r2", startedAt: Self.t0, extPanId: "deadbeef00000001", channel: 20, now: Self.t0 + 301)
        #expect(Self.recorded(end).map { ($0.0.state, $0.running) } ?? (.none, true) == (.failed, false))
        #expect(end.last == .cancelWake)
    }

    /// A router read at its deadline that is on the target (its change was not seen) has moved.
    @Test func routerFoundOnTheTargetAtItsDeadlineMoved() {
        var (machine, _) = Self.started()
        _ = machine.timerFired(now: Self.t0 + 60)
        _ = machine.routerRead(router: "r1", startedAt: Self.t0, online: true, active: Self.target, pending: nil, now: Self.t0 + 60)
        #expect(Self.step(machine, "r1")?.outcome == .moved)
    }

    /// A cancel racing a router that moves: r1 moves between the cancel's read and its send, r2 is
    /// cancelled. Both outcomes stay, whichever comes first.
    @Test func cancelRacingAMoveKeepsBoth() throws {
        var (machine, _) = Self.started()
        let requested = machine.cancelRequested()
        let reads = try #require(requested)
        #expect(reads == [.readForCancel(router: "r1"), .readForCancel(router: "r2")])
        // r1 moves while the cancel reads.
        _ = machine.networkSeen(router: "r1", startedAt: Self.t0, extPanId: "deadbeef00000001", channel: 20, now: Self.t0 + 30)
        #expect(machine.cancelRead(router: "r1", active: Self.target, now: Self.t0 + 30).isEmpty, "nothing is sent to a router that moved")
        // r2: a D-Bus router moving to another key cannot be cancelled; make it a channel change's router instead.
        var channelOnly = Self.source
        channelOnly.extendedPANID = ExtendedPANID(0xdead_beef_0000_0001)
        let send = machine.cancelRead(router: "r2", active: channelOnly, now: Self.t0 + 30)
        guard case .sendCancel(let router, let dataset)? = send.first else { Issue.record("no cancel sent: \(send)"); return }
        #expect(router == "r2" && dataset.activeTimestamp == Timestamp(seconds: 6), "newer than the target's Active Timestamp")
        let end = machine.cancelSent(router: "r2", now: Self.t0 + 31)
        #expect(Self.step(machine, "r1")?.outcome == .moved)
        #expect(Self.step(machine, "r2")?.outcome == .cancelled)
        #expect(Self.recorded(end).map { ($0.0.state, $0.running) } ?? (.none, true) == (.cancelled, false))
    }

    /// The same race the other way round: the cancel is sent to r1, then r1's old watch reports a move
    /// the cancel already stopped… it cannot, the step is no longer pending; and a read for a verdict
    /// that a cancel overtook settles nothing.
    @Test func cancelThenLateReadingsChangeNothing() throws {
        var (machine, _) = Self.started()
        _ = machine.timerFired(now: Self.t0 + 60)  // r1 is being read for its verdict
        let requested = machine.cancelRequested()
        #expect(requested != nil)
        _ = machine.cancelRead(router: "r1", active: Self.source, now: Self.t0 + 60)
        _ = machine.cancelSent(router: "r1", now: Self.t0 + 60)
        #expect(Self.step(machine, "r1")?.outcome == .cancelled)
        #expect(machine.routerRead(router: "r1", startedAt: Self.t0, online: true, active: Self.source, pending: nil, now: Self.t0 + 61).isEmpty)
        #expect(Self.step(machine, "r1")?.outcome == .cancelled)
        // r2 over D-Bus to another key: not cancellable, stays pending, says why.
        _ = machine.cancelRead(router: "r2", active: Self.source, now: Self.t0 + 61)
        #expect(Self.step(machine, "r2")?.outcome == .pending)
        #expect(Self.step(machine, "r2")?.detail.hasPrefix("cannot be cancelled over D-Bus") == true)
        #expect(!machine.isCancelling)
    }

    /// A router judged failed that moves later is reported moved, and the migration that had ended
    /// failed becomes done; a new migration stops following it.
    @Test func failedRouterThatMovesLaterIsMovedAndTheMigrationDone() throws {
        var (machine, _) = Self.started()
        _ = machine.networkSeen(router: "r2", startedAt: Self.t0, extPanId: "deadbeef00000001", channel: 20, now: Self.t0 + 10)
        _ = machine.timerFired(now: Self.t0 + 60)
        let failed = machine.routerRead(router: "r1", startedAt: Self.t0, online: false, active: nil, pending: nil, now: Self.t0 + 60)
        #expect(Self.recorded(failed).map { ($0.0.state, $0.running) } ?? (.none, true) == (.failed, false))
        #expect(machine.follows(router: "r1", startedAt: Self.t0), "a failed router is followed after the end")
        #expect(machine.networkSeen(router: "r1", startedAt: Self.t0, extPanId: "1111111122222222", channel: 15, now: Self.t0 + 90).isEmpty)
        let late = machine.networkSeen(router: "r1", startedAt: Self.t0, extPanId: "deadbeef00000001", channel: 20, now: Self.t0 + 100)
        let (row, running) = try #require(Self.recorded(late))
        #expect(!running && row.state == .done)
        #expect(row.steps.first { $0.router == "r1" }?.outcome == .moved)
        #expect(row.steps.first { $0.router == "r1" }?.detail.hasSuffix("(after its deadline)") == true)
        #expect(!machine.follows(router: "r1", startedAt: Self.t0))
        _ = machine.start(Self.plan(), target: Self.target, now: Self.t0 + 200)
        #expect(machine.networkSeen(router: "r1", startedAt: Self.t0, extPanId: "deadbeef00000001", channel: 20, now: Self.t0 + 201).isEmpty)
    }

    /// After a restart of tbrd: a migration read from the store is followed again, and a deadline that
    /// passed while tbrd was down is due at once.
    @Test func resumedMigrationIsFollowedAndItsPastDeadlineIsDue() throws {
        let (started, _) = Self.started()
        let stored = try #require(started.running)
        var machine = MigrationMachine()
        let directives = machine.resume(stored)
        #expect(directives.contains(.follow(router: "r1", startedAt: Self.t0)))
        #expect(directives.last == .wake(at: Self.t0 + 30 + MigrationPlanner.graceSeconds))
        #expect(machine.timerFired(now: Self.t0 + 1000).prefix(2) == [.read(router: "r1", startedAt: Self.t0), .read(router: "r2", startedAt: Self.t0)])
    }
}
