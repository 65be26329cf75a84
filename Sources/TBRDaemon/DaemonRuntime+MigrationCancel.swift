import DBus
import DeviceModel
import FoundationEssentials
import MeshCoP
import Store
import TBRDBusAPI
import TBRFoundation
import TBRCore

// Cancelling a running migration, and the record's JSON form.

extension DaemonRuntime {
    // MARK: cancelling

    /// `CancelMigration`: each pending router gets what MeshCoP allows before the delay ends. The current
    /// network again with an Active Timestamp newer than the pending one's: over REST a newer pending
    /// dataset (it replaces tbrd's); over D-Bus an active set of the current network, which stops a
    /// channel change (same key: at expiry the older pending dataset is dropped) but not a move to
    /// another network key (that takes effect whatever the timestamps: OpenThread's HandleDelayTimer).
    ///
    /// Each router's outcome is decided across awaits, so it is written into the row as it is then,
    /// never into a copy taken before: a step a watch settled meanwhile (`moved`) keeps its outcome.
    func cancelMigration(_ id: StructureID) async throws -> MigrationRow {
        guard let row = runningMigrations[id] else {
            throw DaemonError.missing("no migration or channel change of the structure is pending")
        }
        let startedAt = row.startedAt
        var decided: [String: (outcome: MigrationOutcome?, detail: String)] = [:]
        for step in row.steps where step.outcome == .pending {
            guard let router = DeviceID(rawValue: step.router),
                let tlvs = try? await service.datasetTLVs(of: router, pending: false), var current = try? OperationalDataset(bytes: tlvs)
            else {
                decided[step.router] = (nil, "not cancelled: its active dataset cannot be read; the move stays pending")
                continue
            }
            let keyChanges = current.extendedPANID?.description != row.targetExtPanId
            if step.transport == "dbus" && keyChanges {
                decided[step.router] = (
                    nil,
                    "cannot be cancelled over D-Bus: a pending dataset with another network key takes effect whatever the "
                        + "timestamps, and AttachAllNodesTo cannot send one that keeps the current network; the move stays pending"
                )
                continue
            }
            current.activeTimestamp = Timestamp(seconds: max(current.activeTimestamp?.seconds ?? 0, step.activeTimestamp) + 1)
            do {
                _ = try await service.sendPendingDataset(current.encoded(), to: router, delay: .seconds(30))
                decided[step.router] = (.cancelled, "stays on \(step.fromExtPanId) channel \(step.fromChannel)")
            } catch {
                decided[step.router] = (nil, "not cancelled: \(DaemonError.core(error).message); the move stays pending")
            }
        }
        // The row as it is now: only steps still pending take the cancel's outcome.
        guard var now = runningMigrations[id], now.startedAt == startedAt else { return try await migrationRow(id) }
        for i in now.steps.indices where now.steps[i].outcome == .pending {
            guard let (outcome, detail) = decided[now.steps[i].router] else { continue }
            if let outcome { now.steps[i].outcome = outcome }
            now.steps[i].detail = detail
        }
        return await record(id, now)
    }

    // MARK: the record

    static func encodeMigration(_ row: MigrationRow) -> String {
        (try? JSONEncoder().encode(row)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func decodeMigration(_ body: String) -> MigrationRow? {
        try? JSONDecoder().decode(MigrationRow.self, from: Data(body.utf8))
    }
}
