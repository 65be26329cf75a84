import DBus
import TBRDBusAPI
import TBRFoundation

/// A structure's migration and channel change (`io.tbrd.Structure1`: Migrate, SetChannel,
/// CancelMigration, Migration).
extension TbrdBackend {
    private typealias StructureAPI = TBRDBusAPI.Structure

    /// `Migration` of structure `name`.
    func migration(of name: String) async throws -> MigrationRow {
        let object = structureObject(try await structurePath(name))
        do { return try await object.property(StructureAPI.Property.migration.rawValue, as: MigrationRow.self) } catch {
            throw ErrorMapping.controlError(error, doing: "reading the migration of structure \(Quoted(name))")
        }
    }

    /// Calls `member` of structure `name`, which answers a `MigrationRow`.
    func migrationCall(_ name: String, _ member: MemberName, _ arguments: [DBusValue], doing: String) async throws -> MigrationRow {
        let reply: [DBusValue]
        do {
            reply = try await structureObject(try await structurePath(name)).call(member, arguments, timeout: Self.networkTimeout)
        } catch {
            throw Self.mapped(error, doing: doing)
        }
        guard let first = reply.first, let row = try? MigrationRow(dbusValue: first) else {
            throw ControlError.failure("\(member) sent an unexpected reply")
        }
        return row
    }

    /// Waits until structure `name`'s migration is no longer pending, following `Migration`'s changes
    /// (subscribed before the first read, so no change is missed).
    func waitForMigration(of name: String) async throws -> MigrationRow {
        let path = try await structurePath(name)
        let signals: SignalStream
        do {
            signals = try await connection.signals(
                matching: .propertiesChanged(sender: TBRDBusAPI.busName, path: path, interface: StructureAPI.interface))
        } catch {
            throw ErrorMapping.controlError(error, doing: "following the migration of structure \(Quoted(name))")
        }
        var row = try await migration(of: name)
        guard row.state == .pending else { return row }
        for try await signal in signals {
            guard signal.arguments.count >= 2, let changed = try? [String: DBusValue](dbusValue: signal.arguments[1]),
                let value = changed[StructureAPI.Property.migration.rawValue]
            else { continue }
            let inner: DBusValue = if case .variant(let v) = value { v } else { value }
            guard let next = try? MigrationRow(dbusValue: inner) else { continue }
            row = next
            if row.state != .pending { return row }
        }
        throw ControlError.unavailable("tbrd went away while the migration of \(Quoted(name)) was pending")
    }
}

/// The text form of a migration: what moves where, per router.
enum MigrationText {
    static func render(_ row: MigrationRow, structure: String, now: Double) -> String {
        guard row.state != .none else { return "\(Quoted(structure)) has had no migration or channel change" }
        let what = row.kind == .channel ? "Channel change" : "Migration"
        let left = row.state == .pending ? ", \(max(0, Int((row.dueAt - now).rounded(.up)))) s left" : ""
        var lines = [
            "\(what) of \(Quoted(structure)): \(row.state.rawValue)\(left)",
            "Target: \(row.targetNetworkName.isEmpty ? "-" : Quoted(row.targetNetworkName).description) (\(row.targetExtPanId)) on channel \(row.targetChannel)",
        ]
        if !row.detail.isEmpty { lines.append("Source: \(row.detail)") }
        let table = TextTable.render(
            header: ["ROUTER", "ACTION", "FROM", "ACTIVE TS", "PENDING TS", "DELAY", "OUTCOME", "DETAIL"],
            rows: row.steps.map { s in
                let from = s.fromExtPanId.isEmpty ? "-" : "\(s.fromExtPanId) ch \(s.fromChannel)"
                let delay = s.delayMs == 0 ? "-" : "\(s.delayMs / 1000) s"
                let timeLeft = s.outcome == .pending ? " (\(max(0, Int((s.dueAt - now).rounded(.up)))) s left)" : ""
                return [
                    s.router, s.action.rawValue, from, s.action == .move ? "\(s.activeTimestamp)" : "-",
                    s.action == .move ? "\(s.pendingTimestamp)" : "-", delay, s.outcome.rawValue + timeLeft, s.detail.isEmpty ? "-" : s.detail,
                ]
            })
        return (lines + ["", table]).joined(separator: "\n")
    }
}
