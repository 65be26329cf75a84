package import MeshCoP
package import TBRDocuments

/// One structure's migration or channel change after it was planned, as a sans-IO machine
/// (docs/architecture.md, "Moving a structure onto one network").
///
/// Its `mutating` handlers take an input (a send's answer, a router's network seen, a reading, the
/// timer, a cancel) and the wall time, change the one ``Migration`` value they own, and return the
/// ``MigrationDirective``s to carry out. Every decision lives here: a step's outcome, when the
/// structure's lock is released (no step pending), when to look again (each pending router's delay
/// plus ``graceSeconds``), what a cancel may send, and which routers are followed. Because each input
/// changes the migration as it is when it arrives, a cancel and a router moving meanwhile both keep
/// what they decided, in either order. The driver performs the directives; tests drive the machine with
/// explicit times.
///
/// A migration is `pending` from ``start(_:target:now:)`` (or ``resume(_:)`` after a restart) until no
/// step is pending; it then ends `failed` (a step failed), `cancelled` (a step was cancelled) or `done`.
/// A router judged `failed` is followed on: if it shows the target later, its step becomes `moved`,
/// in the running migration or in the one that ended (which becomes `done` when no step failed), until
/// another migration of the structure starts.
package struct MigrationMachine: Sendable {
    /// How long after a router's delay it may take to show the target before it is judged.
    package let graceSeconds: Double
    /// The migration whose delay runs (the structure's lock is held); nil when none.
    package private(set) var running: Migration?
    /// The last migration that ended, kept for its failed routers that may still move.
    package private(set) var ended: Migration?
    /// The routers whose pending dataset is being sent (``start(_:target:now:)``).
    private var sending: Set<String> = []
    /// The routers whose cancel is under way.
    private var cancelling: Set<String> = []
    /// The routers being read for their verdict.
    private var judging: Set<String> = []

    package init(graceSeconds: Double = MigrationPlanner.graceSeconds) {
        self.graceSeconds = graceSeconds
    }

    /// The structure's migration: the running one, else the last that ended here; nil when neither.
    package var current: Migration? { running ?? ended }

    /// Whether a cancel is being carried out.
    package var isCancelling: Bool { !cancelling.isEmpty }

    // MARK: starting

    /// The structure's lock is taken for `plan` (tbrd's store refused nobody): it becomes `pending`, and
    /// each router to move is sent `target`. The migration is recorded once every send has answered.
    package mutating func start(_ plan: Migration, target: OperationalDataset, now: Double) -> [MigrationDirective] {
        var migration = plan
        migration.state = .pending
        migration.startedAt = now
        running = migration
        ended = nil
        sending = []
        cancelling = []
        judging = []
        var directives: [MigrationDirective] = []
        for step in migration.steps where step.action == .move && step.outcome == .planned {
            sending.insert(step.router)
            directives.append(.send(router: step.router, dataset: target, delayMs: step.delayMs))
        }
        return directives.isEmpty ? started(now: now) : directives
    }

    /// The agent of `router` took the pending dataset with a delay of `delayMs` (its Pending Timestamp
    /// as it holds it, when it could be read).
    package mutating func sent(router: String, delayMs: UInt32, pendingTimestamp: UInt64?, now: Double) -> [MigrationDirective] {
        guard sending.remove(router) != nil, let i = index(of: router, in: running, .planned) else { return [] }
        running!.steps[i].delayMs = delayMs
        running!.steps[i].dueAt = now + Double(delayMs) / 1000
        if let pendingTimestamp { running!.steps[i].pendingTimestamp = pendingTimestamp }
        running!.steps[i].outcome = .pending
        return sending.isEmpty ? started(now: now) : []
    }

    /// The pending dataset could not be sent to `router` (`reason`): its step failed, it stays.
    package mutating func notSent(router: String, reason: String, now: Double) -> [MigrationDirective] {
        guard sending.remove(router) != nil, let i = index(of: router, in: running, .planned) else { return [] }
        running!.steps[i].outcome = .failed
        running!.steps[i].detail = "not sent: \(reason); the router stays on \(running!.steps[i].fromExtPanId)"
        return sending.isEmpty ? started(now: now) : []
    }

    /// Every send has answered: the migration's due time, the routers followed, the record, the timer.
    private mutating func started(now: Double) -> [MigrationDirective] {
        guard let migration = running else { return [] }
        running!.dueAt = migration.steps.map(\.dueAt).max() ?? 0
        let follows = migration.steps.filter { $0.outcome == .pending }.map {
            MigrationDirective.follow(router: $0.router, startedAt: migration.startedAt)
        }
        return follows + recorded()
    }

    /// A migration found running in the store when tbrd starts (it restarted during the delay): its
    /// pending and failed routers are followed again and its deadlines apply (a deadline already past
    /// is judged at once).
    package mutating func resume(_ migration: Migration) -> [MigrationDirective] {
        running = migration
        ended = nil
        sending = []
        cancelling = []
        judging = []
        return migration.steps.filter { $0.outcome == .pending || $0.outcome == .failed }.map {
            .follow(router: $0.router, startedAt: migration.startedAt)
        } + [timer()]
    }

    // MARK: following

    /// Whether `router` is still followed for the migration that started at `startedAt`: while its step
    /// is pending, or failed (it may move late) until another migration starts.
    package func follows(router: String, startedAt: Double) -> Bool {
        if let running, running.startedAt == startedAt {
            return running.steps.contains { $0.router == router && ($0.outcome == .pending || $0.outcome == .failed) }
        }
        if let ended, ended.startedAt == startedAt {
            return ended.steps.contains { $0.router == router && $0.outcome == .failed }
        }
        return false
    }

    /// `router`, followed for the migration that started at `startedAt`, is on `extPanId` and
    /// `channel` (nil: on no network): on the target, its step is `moved` (after its deadline when it
    /// had been judged `failed`).
    package mutating func networkSeen(router: String, startedAt: Double, extPanId: String?, channel: UInt16?, now: Double)
        -> [MigrationDirective]
    {
        if let migration = running, migration.startedAt == startedAt {
            guard extPanId == migration.targetExtPanId, channel == migration.targetChannel else { return [] }
            let moved = "attached to \(migration.targetExtPanId) on channel \(migration.targetChannel)"
            if let i = index(of: router, in: running, .pending) {
                running!.steps[i].outcome = .moved
                running!.steps[i].detail = moved
            } else if let i = index(of: router, in: running, .failed) {
                running!.steps[i].outcome = .moved
                running!.steps[i].detail = moved + " (after its deadline)"
            } else {
                return []
            }
            judging.remove(router)
            return recorded()
        }
        guard var migration = ended, migration.startedAt == startedAt, extPanId == migration.targetExtPanId,
            channel == migration.targetChannel, let i = index(of: router, in: migration, .failed)
        else { return [] }
        migration.steps[i].outcome = .moved
        migration.steps[i].detail = "attached to \(migration.targetExtPanId) on channel \(migration.targetChannel) (after its deadline)"
        if !migration.steps.contains(where: { $0.outcome == .failed }) {
            migration.state = migration.steps.contains { $0.outcome == .cancelled } ? .cancelled : .done
        }
        ended = migration
        return [.record(migration, running: false)]
    }

    // MARK: the deadlines

    /// The timer: each pending router whose delay and grace have passed by `now` is read, to be judged.
    package mutating func timerFired(now: Double) -> [MigrationDirective] {
        guard let migration = running else { return [.cancelWake] }
        var directives: [MigrationDirective] = []
        for step in migration.steps where step.outcome == .pending && step.dueAt + graceSeconds <= now && !judging.contains(step.router) {
            judging.insert(step.router)
            directives.append(.read(router: step.router, startedAt: migration.startedAt))
        }
        return directives + [timer()]
    }

    /// What `router` holds after its deadline (read for the migration that started at `startedAt`): on
    /// the target, `moved`; otherwise `failed`, saying where it is (``MigrationPlanner/verdict(_:online:active:pending:)``).
    package mutating func routerRead(
        router: String, startedAt: Double, online: Bool, active: OperationalDataset?, pending: OperationalDataset?, now: Double
    ) -> [MigrationDirective] {
        guard judging.remove(router) != nil, let migration = running, migration.startedAt == startedAt,
            let i = index(of: router, in: running, .pending)
        else { return [] }
        if online, let active, active.extendedPANID?.description == migration.targetExtPanId, active.channel?.number == migration.targetChannel {
            running!.steps[i].outcome = .moved
            running!.steps[i].detail = "attached to \(migration.targetExtPanId) on channel \(migration.targetChannel)"
        } else {
            (running!.steps[i].outcome, running!.steps[i].detail) = MigrationPlanner.verdict(
                migration.steps[i], online: online, active: active, pending: pending)
        }
        return recorded()
    }

    // MARK: cancelling

    /// A cancel of the running migration: each pending router's active dataset is read first; nil when
    /// no migration runs.
    package mutating func cancelRequested() -> [MigrationDirective]? {
        guard let migration = running else { return nil }
        var directives: [MigrationDirective] = []
        for step in migration.steps where step.outcome == .pending && !cancelling.contains(step.router) {
            cancelling.insert(step.router)
            directives.append(.readForCancel(router: step.router))
        }
        return directives
    }

    /// What MeshCoP allows `router` before its delay ends, from its active dataset (`active`; nil when it
    /// could not be read): its current network again with an Active Timestamp newer than the target's.
    /// Over REST that is a newer pending dataset, which replaces tbrd's. Over D-Bus only
    /// `AttachAllNodesTo` sends one, and a pending dataset with another network key takes effect whatever
    /// the timestamps (OpenThread's dataset manager), so a move to another network cannot be cancelled
    /// there; a channel change can (same key: the older pending dataset is dropped).
    package mutating func cancelRead(router: String, active: OperationalDataset?, now: Double) -> [MigrationDirective] {
        guard cancelling.contains(router), let migration = running, let i = index(of: router, in: running, .pending) else {
            cancelling.remove(router)
            return []
        }
        let step = migration.steps[i]
        guard var current = active else {
            return cancelEnded(router, i, nil, "not cancelled: its active dataset cannot be read; the move stays pending")
        }
        if step.transport == "dbus", current.extendedPANID?.description != migration.targetExtPanId {
            return cancelEnded(
                router, i, nil,
                "cannot be cancelled over D-Bus: a pending dataset with another network key takes effect whatever the "
                    + "timestamps, and AttachAllNodesTo cannot send one that keeps the current network; the move stays pending")
        }
        current.activeTimestamp = Timestamp(seconds: max(current.activeTimestamp?.seconds ?? 0, step.activeTimestamp) + 1)
        return [.sendCancel(router: router, dataset: current)]
    }

    /// `router`'s agent took the cancelling dataset: it stays where it was.
    package mutating func cancelSent(router: String, now: Double) -> [MigrationDirective] {
        guard cancelling.contains(router), let i = index(of: router, in: running, .pending) else {
            cancelling.remove(router)
            return []
        }
        let step = running!.steps[i]
        return cancelEnded(router, i, .cancelled, "stays on \(step.fromExtPanId) channel \(step.fromChannel)")
    }

    /// `router`'s agent refused the cancelling dataset (`reason`): its move stays pending.
    package mutating func cancelNotSent(router: String, reason: String, now: Double) -> [MigrationDirective] {
        guard cancelling.contains(router), let i = index(of: router, in: running, .pending) else {
            cancelling.remove(router)
            return []
        }
        return cancelEnded(router, i, nil, "not cancelled: \(reason); the move stays pending")
    }

    private mutating func cancelEnded(_ router: String, _ i: Int, _ outcome: MigrationOutcome?, _ detail: String) -> [MigrationDirective] {
        cancelling.remove(router)
        if let outcome { running!.steps[i].outcome = outcome }
        running!.steps[i].detail = detail
        return recorded()
    }

    // MARK: the record and the timer

    /// The running migration recorded: ended when no step is pending (the lock is released, the timer
    /// cleared), else still running, with the next deadline.
    private mutating func recorded() -> [MigrationDirective] {
        guard var migration = running else { return [] }
        guard !migration.steps.contains(where: { $0.outcome == .pending || $0.outcome == .planned && $0.action == .move }) else {
            return [.record(migration, running: true), timer()]
        }
        let outcomes = Set(migration.steps.map(\.outcome))
        migration.state = outcomes.contains(.failed) ? .failed : outcomes.contains(.cancelled) ? .cancelled : .done
        running = nil
        ended = migration
        sending = []
        cancelling = []
        judging = []
        return [.record(migration, running: false), .cancelWake]
    }

    /// The next instant a pending router not being read is due for its verdict.
    private func timer() -> MigrationDirective {
        let next = running?.steps.filter { $0.outcome == .pending && !judging.contains($0.router) }.map { $0.dueAt + graceSeconds }.min()
        return next.map { .wake(at: $0) } ?? .cancelWake
    }

    private func index(of router: String, in migration: Migration?, _ outcome: MigrationOutcome) -> Int? {
        migration?.steps.firstIndex { $0.router == router && $0.outcome == outcome }
    }
}
