import DBus
import TBRCore
import TBRCoreServices
import TBRDBusAPI
import TBRDocuments
import TBRFoundation

// Manager1's Problems, ProblemHistory, ProblemOpened and ProblemClosed (issue 49): each maps to
// HealthMonitor's call or what it publishes.

extension DBusAdapter {
    nonisolated func healthMethods() -> [Method] {
        typealias API = TBRDBusAPI.Manager
        return [
            method(API.problems) { [self] _ in [try await self.health.problems().map(Self.problemRow).dbusValue] },
            method(API.problemHistory) { [self] call in
                let (seconds, router) = try Self.historyArguments(call)
                return [try await self.health.problemHistory(seconds: seconds, router: router).map(Self.problemRow).dbusValue]
            },
            method(API.healthSamples) { [self] call in
                let (seconds, router) = try Self.historyArguments(call)
                return [try await self.health.samples(seconds: seconds, router: router).map(Self.sampleRow).dbusValue]
            },
        ]
    }

    /// `(d seconds, s router)` of the history calls: 0 seconds is all, an empty router every subject.
    static func historyArguments(_ call: MethodCall) throws -> (seconds: Double?, router: String?) {
        let seconds: Double = try call.argument(0)
        let router: String = try call.argument(1)
        guard seconds >= 0, seconds.isFinite else { throw DaemonError.invalid("seconds is 0 (all) or more") }
        return (seconds == 0 ? nil : seconds, router.isEmpty ? nil : router)
    }

    static func sampleRow(_ s: HealthSample) -> SampleRow {
        SampleRow(
            at: s.at.secondsSinceEpoch, subject: s.subject, state: s.state ?? "", partition: s.partition.map { Int64($0) } ?? -1,
            routers: s.routers.map { Int64($0) } ?? -1, children: s.children.map { Int64($0) } ?? -1)
    }

    static func problemRow(_ p: HealthProblem) -> ProblemRow {
        ProblemRow(
            id: UInt64(max(0, p.id)), subject: p.subject, check: p.check, message: p.message, fix: p.fix, openedAt: p.openedAt.secondsSinceEpoch,
            closedAt: p.closedAt?.secondsSinceEpoch ?? 0)
    }

    /// `ProblemOpened` and `ProblemClosed` for each change the health monitor publishes.
    func followProblems() async {
        for await change in problemChanges {
            let p = change.problem
            let id = DBusValue.uint64(UInt64(max(0, p.id)))
            if change.opened {
                emit(TBRDBusAPI.Manager.problemOpened, [id, .string(p.subject), .string(p.check), .string(p.message), .string(p.fix)])
            } else {
                emit(TBRDBusAPI.Manager.problemClosed, [id, .string(p.subject), .string(p.check)])
            }
        }
    }
}
