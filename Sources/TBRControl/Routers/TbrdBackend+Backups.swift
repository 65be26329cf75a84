import DBus
import TBRDBusAPI
import TBRFoundation

/// Backups and recovery through tbrd (`Manager1.CreateBackup`/`RestoreBackup`, `Structure1.Recovery`,
/// `Recover`).
extension TbrdBackend {
    private typealias Manager = TBRDBusAPI.Manager
    private typealias StructureAPI = TBRDBusAPI.Structure

    /// A backup's file, sealed by tbrd with `passphrase`.
    func createBackup(passphrase: [UInt8]) async throws -> [UInt8] {
        let reply = try await call(manager, Manager.createBackup.name, [passphrase.dbusValue], doing: "making a backup", timeout: .seconds(120))
        guard let first = reply.first, let file = try? [UInt8](dbusValue: first) else { throw ControlError.failure("CreateBackup sent an unexpected reply") }
        return file
    }

    /// What `RestoreBackup` answered.
    struct Restored: Sendable {
        var replaced: Bool
        var previousBackup: String
        var recovery: [RecoveryRow]
    }

    func restoreBackup(_ file: [UInt8], passphrase: [UInt8], replace: Bool, dryRun: Bool) async throws -> Restored {
        let reply = try await call(
            manager, Manager.restoreBackup.name, [file.dbusValue, passphrase.dbusValue, .bool(replace), .bool(dryRun)],
            doing: dryRun ? "checking the restore" : "restoring the backup", timeout: .seconds(300))
        guard reply.count == 3, case .bool(let replaced) = reply[0], case .string(let previous) = reply[1],
            let rows = try? [RecoveryRow](dbusValue: reply[2])
        else { throw ControlError.failure("RestoreBackup sent an unexpected reply") }
        return Restored(replaced: replaced, previousBackup: previous, recovery: rows)
    }

    /// `Structure1.Recovery` of structure `name`, after setting it to `mode` when given.
    func recovery(of name: String, setting mode: String?) async throws -> String {
        let object = structureObject(try await structurePath(name))
        if let mode {
            do { try await object.setProperty(StructureAPI.Property.recovery.rawValue, .string(mode)) } catch {
                throw ErrorMapping.controlError(error, doing: "setting the recovery of structure \(Quoted(name))")
            }
        }
        do { return try await object.property(StructureAPI.Property.recovery.rawValue).decode(as: String.self) } catch {
            throw ErrorMapping.controlError(error, doing: "reading the recovery of structure \(Quoted(name))")
        }
    }

    /// `Structure1.Recover(s router)`.
    func recover(_ name: String, router: String?) async throws -> [RecoveryRow] {
        let object = structureObject(try await structurePath(name))
        let reply = try await call(object, StructureAPI.recover.name, [.string(router ?? "")], doing: "recovering routers of \(Quoted(name))", timeout: .seconds(120))
        guard let first = reply.first, let rows = try? [RecoveryRow](dbusValue: first) else { throw ControlError.failure("Recover sent an unexpected reply") }
        return rows
    }
}
