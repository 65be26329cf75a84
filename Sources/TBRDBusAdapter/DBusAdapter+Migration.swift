import TBRCoreServices
import BorderRouterService
import DBus
import TBRDBusAPI
import TBRDocuments
import TBRFoundation

// The D-Bus members of a structure's migration and channel change (Structure1.Migrate, SetChannel,
// CancelMigration and the Migration property), over StructureMigrations.

extension DBusAdapter {
    nonisolated func migrationMethods(_ id: StructureID) -> [Method] {
        typealias API = TBRDBusAPI.Structure
        return [
            method(API.migrate) { [self] call in
                [try await migrations.migrate(id, to: try call.argument(0), delaySeconds: try call.argument(1), dryRun: try call.argument(2)).dbusValue]
            },
            method(API.setChannel) { [self] call in
                [try await migrations.setChannel(id, try call.argument(0), delaySeconds: try call.argument(1), dryRun: try call.argument(2)).dbusValue]
            },
            method(API.cancelMigration) { [self] _ in [try await migrations.cancel(id).dbusValue] },
        ]
    }

    /// Signals each change of a structure's `Migration`, until tbrd stops.
    func followMigrations() async {
        for await (id, migration) in migrations.changes.stream {
            emitStructureChanged(id, [.migration: migration.dbusValue])
        }
    }
}
