import BorderRouterService
import FoundationEssentials
import Store
import TBRFoundation

/// Journals each ePSKc event in the store before the service streams it (and tbrd signals it), so a
/// watcher replaying from a sequence number never misses an event. The key is never part of an event.
struct JournalSink: EpskcEventSink {
    let store: TBRStore
    let logger: Logger

    func journal(_ event: EpskcEvent, restoreRecord: EpskcSessionRecord?) async throws -> UInt64? {
        let router = event.deviceID
        do {
            let sequence: Int64
            switch event {
            case .activated(let e):
                let record = try restoreRecord.map { Array(try JSONEncoder().encode($0)) }
                sequence = try await store.appendEpskcEvent(
                    router: router, session: e.sessionID.description, kind: .activated,
                    activatedAt: e.activatedAt.secondsSinceEpoch, validSeconds: e.validDurationSeconds,
                    restoreRecord: record)
            case .deactivated(let e):
                sequence = try await store.appendEpskcEvent(
                    router: router, session: e.sessionID.description, kind: .deactivated, reason: e.reason.rawValue,
                    detail: e.detail?.rawValue, activatedAt: e.activatedAt.secondsSinceEpoch,
                    deactivatedAt: e.deactivatedAt.secondsSinceEpoch, validSeconds: nil)
            }
            return UInt64(sequence)
        } catch {
            logger.error("could not journal an ephemeral-key event", [("router", router.rawValue), ("error", "\(error)")])
            throw error
        }
    }
}
