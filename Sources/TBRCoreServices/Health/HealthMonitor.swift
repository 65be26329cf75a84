package import BorderRouterService
import OpenThreadBR
package import Store
package import TBRCore
package import TBRDocuments
package import TBRFoundation

/// tbrd watching every router and the host all the time (TBRCore's ``TBRCore/HealthCore``, issue 49):
/// the doctor's checks run on the events that can change them (a router's role or presence changing, a
/// router added or removed) and on a timed pass as a backstop; a check that fails opens a problem, one
/// that passes again closes it, and `router-lost` follows a router that stops being a router. Problems are
/// kept in the store (open ones survive a restart; closed ones are history, pruned after `retention`), and
/// each opening and closing is published on ``changes`` for the adapters.
package actor HealthMonitor {
    package let service: BorderRouterService
    package let diagnostics: CoreDiagnostics
    package let store: TBRStore
    package let clock: any TBRClock
    package let logger: Logger
    /// How often every router and the host are checked even when nothing announced a change.
    package let backstop: Duration
    /// How long closed problems are kept, in seconds.
    package let retention: Double
    /// tbrd's call gate: once it closes tbrd is stopping, its routers go offline because it does, and no
    /// problem is opened for that.
    package let calls: CallGate
    /// Each problem opened or closed, for the adapters (`ProblemOpened`/`ProblemClosed`, the `problem` event).
    package nonisolated let changes = EventBroadcaster<ProblemChange>()
    /// Routers being checked now, and those to check again once that ends (a change meanwhile).
    private var checking: Set<DeviceID> = []
    private var again: Set<DeviceID> = []

    /// The checks about this host rather than the router they were run with.
    package static let hostChecks: Set<String> = ["thread-networks", "firewall", "avahi"]
    /// The check that follows a router that stops being a router.
    package static let routerLost = "router-lost"

    package init(
        service: BorderRouterService, diagnostics: CoreDiagnostics, store: TBRStore, clock: any TBRClock, logger: Logger, backstop: Duration,
        retention: Double, calls: CallGate
    ) {
        self.service = service
        self.diagnostics = diagnostics
        self.store = store
        self.clock = clock
        self.logger = logger
        self.backstop = backstop
        self.retention = retention
        self.calls = calls
    }

    /// Watches until tbrd stops: each router's role and presence, routers added and removed, and the
    /// backstop pass (which also prunes old history).
    package func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.backstopPasses() }
            group.addTask {
                await followEveryRouter(of: self.service, removed: { id in await self.closeAll(of: id.rawValue) }) { id in await self.follow(id) }
            }
        }
    }

    /// Checks router `id` when it comes or goes and when its role changes; opens `router-lost` when it
    /// was a router or leader and is now less (or gone), and closes it when it is one again.
    private func follow(_ id: DeviceID) async {
        guard let updates = await service.summaryUpdates(of: id) else { return }
        var last: (online: Bool, role: DeviceRole?)?
        for await summary in updates {
            let now = (online: summary.isOnline, role: summary.role)
            defer { last = now }
            guard last.map({ $0.online != now.online || $0.role != now.role }) ?? true else { continue }
            let wasRouter = last.map { $0.online && Self.isRouter($0.role) } ?? false
            if now.online, Self.isRouter(now.role) {
                await close(subject: id.rawValue, check: Self.routerLost)
            } else if wasRouter, let before = last?.role {
                let after = now.online ? (now.role.map { "\($0)" } ?? "unknown") : "gone (its agent does not answer)"
                await open(
                    subject: id.rawValue, check: Self.routerLost, message: "\(id) was \(before) and is now \(after)",
                    fix: "tbrctl doctor -d \(id) says what it reads; check its radio and otbr-agent")
            }
            await evaluate(id)
        }
    }

    private static func isRouter(_ role: DeviceRole?) -> Bool { role == .router || role == .leader }

    /// Every router and the host, every ``backstop``; closed problems older than ``retention`` pruned.
    private func backstopPasses() async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: backstop) } catch { return }
            for id in await service.deviceIDs() { await evaluate(id) }
            do { try await store.pruneProblems(closedBefore: clock.wallTime() - retention) } catch {
                logger.warning("old problems could not be pruned", [("error", "\(error)")])
            }
        }
    }

    /// Runs the doctor's checks of router `id` (and the host) and opens or closes problems by them; a
    /// request while they run makes them run once more after.
    package func evaluate(_ id: DeviceID) async {
        guard checking.insert(id).inserted else {
            again.insert(id)
            return
        }
        defer { checking.remove(id) }
        repeat {
            again.remove(id)
            guard let checks = try? await diagnostics.doctorChecks(id.rawValue) else { return }
            for check in checks {
                let subject = Self.hostChecks.contains(check.id) ? HealthProblem.host : id.rawValue
                if check.status == .fail {
                    await open(subject: subject, check: check.id, message: check.message, fix: check.fix)
                } else {
                    await close(subject: subject, check: check.id)
                }
            }
        } while again.contains(id)
    }

    private func open(subject: String, check: String, message: String, fix: String) async {
        guard calls.isOpen else { return }
        do {
            let (record, opened) = try await store.openProblem(subject: subject, check: check, message: message, fix: fix)
            guard opened else { return }
            logger.notice("problem opened", [("subject", subject), ("check", check), ("id", "\(record.id)")])
            changes.publish(ProblemChange(opened: true, problem: Self.problem(record)))
        } catch {
            logger.error("a problem could not be recorded", [("subject", subject), ("check", check), ("error", "\(error)")])
        }
    }

    private func close(subject: String, check: String) async {
        do {
            guard let record = try await store.closeProblem(subject: subject, check: check) else { return }
            logger.notice("problem closed", [("subject", subject), ("check", check), ("id", "\(record.id)")])
            changes.publish(ProblemChange(opened: false, problem: Self.problem(record)))
        } catch {
            logger.error("a problem could not be closed", [("subject", subject), ("check", check), ("error", "\(error)")])
        }
    }

    /// Closes every open problem of `subject` (a router removed from tbrd).
    private func closeAll(of subject: String) async {
        let open = (try? await store.openProblems()) ?? []
        for record in open where record.subject == subject { await close(subject: subject, check: record.check) }
    }

    package static func problem(_ r: ProblemRecord) -> HealthProblem {
        HealthProblem(
            id: r.id, subject: r.subject, check: r.check, message: r.message, fix: r.fix, openedAt: WallTime(secondsSinceEpoch: r.openedAt),
            closedAt: r.closedAt.map { WallTime(secondsSinceEpoch: $0) })
    }
}

extension HealthMonitor: HealthCore {
    package func problems() async throws -> [HealthProblem] {
        do { return try await store.openProblems().map(Self.problem) } catch { throw ServiceError.core(error) }
    }

    package func problemHistory(seconds: Double?, router: String?) async throws -> [HealthProblem] {
        var subject = router
        if let router, router != HealthProblem.host, let id = await service.resolveRouter(router) { subject = id.rawValue }
        let since = seconds.map { clock.wallTime() - $0 } ?? 0
        do { return try await store.problems(since: since, subject: subject).map(Self.problem) } catch { throw ServiceError.core(error) }
    }
}
