package import Store
import TBRCore
package import TBRDocuments
import DeviceModel
import TBRFoundation

/// The problems and samples the health monitor keeps, as the core answers for them (TBRCore's
/// ``TBRCore/HealthCore``).
extension HealthMonitor: HealthCore {
    package static func problem(_ r: ProblemRecord) -> HealthProblem {
        HealthProblem(
            id: r.id, subject: r.subject, check: r.check, message: r.message, fix: r.fix, openedAt: WallTime(secondsSinceEpoch: r.openedAt),
            closedAt: r.closedAt.map { WallTime(secondsSinceEpoch: $0) })
    }

    package func problems() async throws -> [HealthProblem] {
        do { return try await store.openProblems().map(Self.problem) } catch { throw ServiceError.core(error) }
    }

    package func problemHistory(seconds: Double?, router: String?) async throws -> [HealthProblem] {
        let subject = await historySubject(router)
        let since = seconds.map { clock.wallTime() - $0 } ?? 0
        do { return try await store.problems(since: since, subject: subject).map(Self.problem) } catch { throw ServiceError.core(error) }
    }

    package func samples(seconds: Double?, router: String?) async throws -> [HealthSample] {
        let subject = await historySubject(router)
        let since = seconds.map { clock.wallTime() - $0 } ?? 0
        do {
            return try await store.samples(since: since, subject: subject).map {
                HealthSample(
                    at: WallTime(secondsSinceEpoch: $0.at), subject: $0.subject, state: $0.state, partition: $0.partition, routers: $0.routers,
                    children: $0.children)
            }
        } catch { throw ServiceError.core(error) }
    }

    package func reading(of router: String) async throws -> RouterReading {
        guard let id = await service.resolveRouter(router) else { throw ServiceError.missing("there is no border router \(Quoted(router))") }
        let summary = await service.routerSummaries().first { $0.id == id }
        let observation = observations[id]
        let online = summary?.isOnline ?? false
        return RouterReading(
            router: id.rawValue, online: online, role: online ? (summary?.role).map { "\($0)" } : nil,
            partitionId: online ? observation?.partitionID.map(HealthSample.partitionText) : nil, routers: online ? observation?.routers : nil,
            children: online ? observation?.children : nil)
    }

    /// The subject a history is asked of: a router's id however it was named, or the word as given
    /// (`host`, `node N`, a router removed since).
    private func historySubject(_ router: String?) async -> String? {
        guard let router, router != HealthProblem.host else { return router }
        return await service.resolveRouter(router)?.rawValue ?? router
    }
}
