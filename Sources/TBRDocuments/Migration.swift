/// What a migration does: `merge` (onto another network), `channel` (the structure's network to another
/// channel), or none (`""`) for a structure that never had one.
public enum MigrationKind: String, Codable, Sendable, Hashable, CaseIterable {
    case none = ""
    case merge
    case channel
}

/// Where a migration is: `none` (never had one), `planned` (a dry run: nothing was sent), `pending` (the
/// delay runs; the structure's lock is held), `done` (every moving router moved), `failed` (at least
/// one did not), `cancelled`.
public enum MigrationState: String, Codable, Sendable, Hashable, CaseIterable {
    case none, planned, pending, done, failed, cancelled
}

/// What a migration does with one router: `move` (a pending dataset is sent), `stay` (already on the
/// target), `skip` (not touched: offline at planning time, or on no network).
public enum MigrationAction: String, Codable, Sendable, Hashable, CaseIterable {
    case move, stay, skip
}

/// How one router's step came out: `planned` (a dry run), `pending` (the delay runs), `moved`, `failed`,
/// `cancelled`, `unchanged` (stay), `skipped`.
public enum MigrationOutcome: String, Codable, Sendable, Hashable, CaseIterable {
    case planned, pending, moved, failed, cancelled, unchanged, skipped
}

/// One router of a migration or channel change. Timestamps are the Active and Pending Timestamps'
/// seconds (0: none); `dueAt` is when the delay ends, seconds since the Unix epoch (0: nothing pending);
/// `detail` says why (a failure's reason, what was skipped).
///
/// This is the document `tbrctl --json structure migrate` prints, the record the store keeps (its JSON),
/// and, mapped by TBRDBusAPI, the D-Bus struct `MigrationStepRow`.
public struct MigrationStep: Codable, Sendable, Hashable {
    public var router: String
    public var transport: String
    public var action: MigrationAction
    public var fromExtPanId: String
    public var fromNetworkName: String
    public var fromChannel: UInt16
    public var activeTimestamp: UInt64
    public var pendingTimestamp: UInt64
    public var delayMs: UInt32
    public var dueAt: Double
    public var outcome: MigrationOutcome
    public var detail: String

    public init(
        router: String, transport: String, action: MigrationAction, fromExtPanId: String, fromNetworkName: String, fromChannel: UInt16,
        activeTimestamp: UInt64, pendingTimestamp: UInt64, delayMs: UInt32, dueAt: Double, outcome: MigrationOutcome, detail: String
    ) {
        self.router = router
        self.transport = transport
        self.action = action
        self.fromExtPanId = fromExtPanId
        self.fromNetworkName = fromNetworkName
        self.fromChannel = fromChannel
        self.activeTimestamp = activeTimestamp
        self.pendingTimestamp = pendingTimestamp
        self.delayMs = delayMs
        self.dueAt = dueAt
        self.outcome = outcome
        self.detail = detail
    }
}

/// A structure's migration or channel change. Times are seconds since the Unix epoch (0: none).
///
/// The document `tbrctl --json structure migrate` prints, the store's record, and (TBRDBusAPI)
/// `Structure1.Migration`'s struct.
public struct Migration: Codable, Sendable, Hashable {
    public var kind: MigrationKind
    public var state: MigrationState
    public var targetExtPanId: String
    public var targetNetworkName: String
    public var targetChannel: UInt16
    public var startedAt: Double
    public var dueAt: Double
    public var detail: String
    public var steps: [MigrationStep]

    /// A structure that never had a migration.
    public static let none = Migration(
        kind: .none, state: .none, targetExtPanId: "", targetNetworkName: "", targetChannel: 0, startedAt: 0, dueAt: 0, detail: "", steps: [])

    public init(
        kind: MigrationKind, state: MigrationState, targetExtPanId: String, targetNetworkName: String, targetChannel: UInt16, startedAt: Double,
        dueAt: Double, detail: String, steps: [MigrationStep]
    ) {
        self.kind = kind
        self.state = state
        self.targetExtPanId = targetExtPanId
        self.targetNetworkName = targetNetworkName
        self.targetChannel = targetChannel
        self.startedAt = startedAt
        self.dueAt = dueAt
        self.detail = detail
        self.steps = steps
    }
}
