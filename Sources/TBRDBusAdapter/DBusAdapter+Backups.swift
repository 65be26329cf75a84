import DBus
import TBRCore
import TBRCoreServices
import TBRDBusAPI
import TBRFoundation
import BorderRouterService

// Manager1's CreateBackup and RestoreBackup, Structure1's Recovery, Recover and RouterEmpty (issue 48):
// each maps to CoreBackups' or RouterRecovery's call.

extension DBusAdapter {
    nonisolated func backupMethods() -> [Method] {
        typealias API = TBRDBusAPI.Manager
        return [
            method(API.createBackup) { [self] call in
                [try await self.backups.createBackup(passphrase: try call.argument(0)).dbusValue]
            },
            method(API.restoreBackup) { [self] call in
                let outcome = try await self.backups.restoreBackup(
                    try call.argument(0), passphrase: try call.argument(1), replace: try call.argument(2), dryRun: try call.argument(3))
                return [.bool(outcome.replaced), .string(outcome.previousStateBackup ?? ""), outcome.recovery.map(Self.recoveryRow).dbusValue]
            },
        ]
    }

    nonisolated func recoveryMethods(_ id: StructureID) -> [Method] {
        [
            method(TBRDBusAPI.Structure.recover) { [self] call in
                let name = try await self.structureService.info(id).name
                let router: String = try call.argument(0)
                return [try await self.recovery.recover(name, router: router.isEmpty ? nil : router).map(Self.recoveryRow).dbusValue]
            }
        ]
    }

    static func recoveryRow(_ r: RecoveryReport) -> RecoveryRow {
        RecoveryRow(router: r.router, state: r.state.rawValue, network: r.network, routerNetwork: r.routerNetwork ?? "", detail: r.detail)
    }

    /// `RouterEmpty` on the structure's object for each report but `ok`.
    func followRecoveryReports() async {
        for await report in recoveryReports where report.state != .ok {
            guard let info = try? await structureService.structure(named: report.structure), exportedStructures.contains(info.id) else { continue }
            do {
                try connection.emit(
                    path: Self.structurePath(info.id), interface: TBRDBusAPI.Structure.interface, member: TBRDBusAPI.Structure.routerEmpty.name,
                    arguments: [.string(report.router), .string(report.state.rawValue), .string(report.network), .string(report.detail)])
            } catch {
                logger.warning("could not signal RouterEmpty", [("router", report.router), ("error", "\(error)")])
            }
        }
    }
}
