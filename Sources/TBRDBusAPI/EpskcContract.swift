public import DBus
public import DeviceModel

/// One event of `Manager1.EpskcEvents`: `(t sequence, s router, s kind, s reason, s detail,
/// x activatedAt, x deactivatedAt, q validSeconds)`; times in milliseconds since the epoch, 0 for none.
public struct EpskcJournalRow: ContractRow {
    public var sequence: UInt64
    public var router: String
    /// `activated` or `deactivated`.
    public var kind: String
    public var reason: String
    public var detail: String
    public var activatedAt: Int64
    public var deactivatedAt: Int64
    public var validSeconds: UInt16

    public static let fields = [
        Argument("sequence", .uint64), Argument("router", .string), Argument("kind", .string), Argument("reason", .string),
        Argument("detail", .string), Argument("activatedAt", .int64), Argument("deactivatedAt", .int64),
        Argument("validSeconds", .uint16),
    ]

    public init(
        sequence: UInt64, router: String, kind: String, reason: String, detail: String, activatedAt: Int64,
        deactivatedAt: Int64, validSeconds: UInt16
    ) {
        self.sequence = sequence
        self.router = router
        self.kind = kind
        self.reason = reason
        self.detail = detail
        self.activatedAt = activatedAt
        self.deactivatedAt = deactivatedAt
        self.validSeconds = validSeconds
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(
            sequence: try f.next(), router: try f.next(), kind: try f.next(), reason: try f.next(), detail: try f.next(),
            activatedAt: try f.next(), deactivatedAt: try f.next(), validSeconds: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([
            .uint64(sequence), .string(router), .string(kind), .string(reason), .string(detail), .int64(activatedAt),
            .int64(deactivatedAt), .uint16(validSeconds),
        ])
    }
}

/// The arguments of `BorderRouter1.EpskcModeActivated`.
public struct EpskcActivatedSignal: ContractArguments {
    public var sequence: UInt64
    public var router: String
    public var validSeconds: UInt16
    /// Milliseconds since the epoch.
    public var activatedAt: Int64

    public static let declaration = [
        Argument("sequence", .uint64), Argument("router", .string), Argument("validSeconds", .uint16),
        Argument("activatedAt", .int64),
    ]

    public init(sequence: UInt64, router: String, validSeconds: UInt16, activatedAt: Int64) {
        self.sequence = sequence
        self.router = router
        self.validSeconds = validSeconds
        self.activatedAt = activatedAt
    }

    public init(arguments: [DBusValue]) throws(DBusValueError) {
        var f = try Self.reader(arguments)
        self.init(sequence: try f.next(), router: try f.next(), validSeconds: try f.next(), activatedAt: try f.next())
    }

    public var arguments: [DBusValue] { [.uint64(sequence), .string(router), .uint16(validSeconds), .int64(activatedAt)] }
}

/// The arguments of `BorderRouter1.EpskcModeDeactivated`.
public struct EpskcDeactivatedSignal: ContractArguments {
    public var sequence: UInt64
    public var router: String
    /// `keyUsed`, `expired`, `cancelled` or `unspecified`.
    public var reason: String
    /// `""`, `tooManyAttempts` or `endedEarly`.
    public var detail: String
    /// Milliseconds since the epoch.
    public var activatedAt: Int64
    /// Milliseconds since the epoch.
    public var deactivatedAt: Int64

    public static let declaration = [
        Argument("sequence", .uint64), Argument("router", .string), Argument("reason", .string), Argument("detail", .string),
        Argument("activatedAt", .int64), Argument("deactivatedAt", .int64),
    ]

    public init(sequence: UInt64, router: String, reason: String, detail: String, activatedAt: Int64, deactivatedAt: Int64) {
        self.sequence = sequence
        self.router = router
        self.reason = reason
        self.detail = detail
        self.activatedAt = activatedAt
        self.deactivatedAt = deactivatedAt
    }

    public init(arguments: [DBusValue]) throws(DBusValueError) {
        var f = try Self.reader(arguments)
        self.init(
            sequence: try f.next(), router: try f.next(), reason: try f.next(), detail: try f.next(), activatedAt: try f.next(),
            deactivatedAt: try f.next())
    }

    public var arguments: [DBusValue] {
        [.uint64(sequence), .string(router), .string(reason), .string(detail), .int64(activatedAt), .int64(deactivatedAt)]
    }
}

/// The reply of `BorderRouter1.ActivateEpskcMode`: `(s status, s epskc, q validSeconds)`; the key is
/// empty unless the status is `success`.
public struct ActivateEpskcReply: ContractArguments {
    public var status: OperationStatus
    public var epskc: String
    public var validSeconds: UInt16

    public static let declaration = [Argument("status", .string), Argument("epskc", .string), Argument("validSeconds", .uint16)]

    public init(status: OperationStatus, epskc: String, validSeconds: UInt16) {
        self.status = status
        self.epskc = epskc
        self.validSeconds = validSeconds
    }

    public init(arguments: [DBusValue]) throws(DBusValueError) {
        var f = try Self.reader(arguments)
        self.init(status: try OperationStatus(wire: try f.next()), epskc: try f.next(), validSeconds: try f.next())
    }

    public var arguments: [DBusValue] { [.string(status.rawValue), .string(epskc), .uint16(validSeconds)] }
}

/// The reply of `BorderRouter1.JoinNetwork`: `(s status, x delayMs, s message)`.
public struct JoinNetworkReply: ContractArguments {
    public var status: OperationStatus
    /// The migration delay in milliseconds (0 when immediate).
    public var delayMs: Int64
    /// Why, when the status is not `success`.
    public var message: String

    public static let declaration = [Argument("status", .string), Argument("delayMs", .int64), Argument("message", .string)]

    public init(status: OperationStatus, delayMs: Int64, message: String) {
        self.status = status
        self.delayMs = delayMs
        self.message = message
    }

    public init(arguments: [DBusValue]) throws(DBusValueError) {
        var f = try Self.reader(arguments)
        self.init(status: try OperationStatus(wire: try f.next()), delayMs: try f.next(), message: try f.next())
    }

    public var arguments: [DBusValue] { [.string(status.rawValue), .int64(delayMs), .string(message)] }
}
