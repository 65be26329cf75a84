public import DBus

public import TBRDocuments

// A migration's D-Bus form: the documents (TBRDocuments' Migration and MigrationStep) are the values;
// this declares their struct signatures and the string enums once.

extension MigrationKind: DBusStringEnum {}
extension MigrationState: DBusStringEnum {}
extension MigrationAction: DBusStringEnum {}
extension MigrationOutcome: DBusStringEnum {}

/// One router of a migration or channel change (a row of `MigrationRow.steps`):
/// `(s router, s transport, s action, s from_ext_pan_id, s from_network_name, q from_channel,
/// t active_timestamp, t pending_timestamp, u delay_ms, d due_at, s outcome, s detail)`.
///
/// `action`: `move` (a pending dataset is sent), `stay` (already on the target), `skip` (not touched:
/// offline at planning time, or on no network). `outcome`: `planned` (a dry run), `pending` (the delay
/// runs), `moved`, `failed`, `cancelled`, `unchanged` (stay), `skipped`. Timestamps are the Active and
/// Pending Timestamps' seconds (0: none); `due_at` is when the delay ends, seconds since the Unix epoch
/// (0: nothing pending). `detail` says why (a failure's reason, what was skipped).
public typealias MigrationStepRow = MigrationStep

extension MigrationStep: ContractRow {
    public static let fields = [
        Argument("router", .string), Argument("transport", .string), Argument("action", .string),
        Argument("from_ext_pan_id", .string), Argument("from_network_name", .string), Argument("from_channel", .uint16),
        Argument("active_timestamp", .uint64), Argument("pending_timestamp", .uint64), Argument("delay_ms", .uint32),
        Argument("due_at", .double), Argument("outcome", .string), Argument("detail", .string),
    ]

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(
            router: try f.next(), transport: try f.next(), action: try f.next(), fromExtPanId: try f.next(),
            fromNetworkName: try f.next(), fromChannel: try f.next(), activeTimestamp: try f.next(), pendingTimestamp: try f.next(),
            delayMs: try f.next(), dueAt: try f.next(), outcome: try f.next(), detail: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([
            .string(router), .string(transport), action.dbusValue, .string(fromExtPanId), .string(fromNetworkName), .uint16(fromChannel),
            .uint64(activeTimestamp), .uint64(pendingTimestamp), .uint32(delayMs), .double(dueAt), outcome.dbusValue, .string(detail),
        ])
    }
}

/// A structure's migration or channel change (`Structure1.Migration`, and the reply of `Migrate`,
/// `SetChannel` and `CancelMigration`): `(s kind, s state, s target_ext_pan_id, s target_network_name,
/// q target_channel, d started_at, d due_at, s detail, a(…) steps)`.
///
/// `kind`: `merge` (onto another network), `channel` (the structure's network to another channel), or
/// `""` with state `none` when the structure never had one. `state`: `planned` (a dry run: nothing was
/// sent), `pending` (the delay runs; the structure's lock is held), `done` (every moving router moved),
/// `failed` (at least one did not), `cancelled`. Times are seconds since the Unix epoch (0: none).
public typealias MigrationRow = Migration

extension Migration: ContractRow {
    public static let fields = [
        Argument("kind", .string), Argument("state", .string), Argument("target_ext_pan_id", .string),
        Argument("target_network_name", .string), Argument("target_channel", .uint16), Argument("started_at", .double),
        Argument("due_at", .double), Argument("detail", .string), Argument("steps", .array(MigrationStep.dbusType)),
    ]

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(
            kind: try f.next(), state: try f.next(), targetExtPanId: try f.next(), targetNetworkName: try f.next(),
            targetChannel: try f.next(), startedAt: try f.next(), dueAt: try f.next(), detail: try f.next(), steps: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([
            kind.dbusValue, state.dbusValue, .string(targetExtPanId), .string(targetNetworkName), .uint16(targetChannel),
            .double(startedAt), .double(dueAt), .string(detail), steps.dbusValue,
        ])
    }
}

extension TBRDBusAPI.Structure {
    /// `Migrate(s to_ext_pan_id, u delay_s, b dry_run) → (MigrationRow)`: every router of the structure
    /// that is not on the target network (`""`: the preferred one) moves onto it with its mesh, through a
    /// pending dataset. `Busy` while another migration or channel change of the structure runs. Admins only.
    public static let migrate = MethodContract(
        "Migrate", inputs: [Argument("to_ext_pan_id", .string), Argument("delay_s", .uint32), Argument("dry_run", .boolean)],
        outputs: [Argument("migration", MigrationRow.dbusType)])
    /// `SetChannel(q channel, u delay_s, b dry_run) → (MigrationRow)`: the structure's network moves to
    /// `channel` (0: the quietest by the routers' energy scans), under the same lock. Admins only.
    public static let setChannel = MethodContract(
        "SetChannel", inputs: [Argument("channel", .uint16), Argument("delay_s", .uint32), Argument("dry_run", .boolean)],
        outputs: [Argument("migration", MigrationRow.dbusType)])
    /// `CancelMigration() → (MigrationRow)`: stops the running migration before it takes effect, where
    /// MeshCoP allows. Admins only.
    public static let cancelMigration = MethodContract("CancelMigration", outputs: [Argument("migration", MigrationRow.dbusType)])
}
