public import DBus

// Health (issue 49): Manager1's Problems and ProblemHistory, ProblemOpened and ProblemClosed.

extension TBRDBusAPI.Manager {
    /// `Problems() → a(tssssdd)`: the open problems (rows as ``ProblemRow``).
    public static let problems = MethodContract("Problems", outputs: [Argument("problems", [ProblemRow].dbusType)])
    /// `ProblemHistory(d seconds, s router) → a(tssssdd)`: the problems open at some moment in the last
    /// `seconds` (0: all kept), of `router` only when not empty (`host`: the host's), oldest first.
    public static let problemHistory = MethodContract(
        "ProblemHistory", inputs: [Argument("seconds", .double), Argument("router", .string)],
        outputs: [Argument("problems", [ProblemRow].dbusType)])
    /// `HealthSamples(d seconds, s router) → a(dssxxx)`: what changed about each router and Matter node in
    /// the last `seconds` (0: all kept), of `router` only when not empty, oldest first (rows as
    /// ``SampleRow``).
    public static let healthSamples = MethodContract(
        "HealthSamples", inputs: [Argument("seconds", .double), Argument("router", .string)],
        outputs: [Argument("samples", [SampleRow].dbusType)])
    /// `ProblemOpened(t id, s subject, s check, s message, s fix)`.
    public static let problemOpened = SignalContract(
        "ProblemOpened",
        arguments: [Argument("id", .uint64), Argument("subject", .string), Argument("check", .string), Argument("message", .string), Argument("fix", .string)])
    /// `ProblemClosed(t id, s subject, s check)`.
    public static let problemClosed = SignalContract(
        "ProblemClosed", arguments: [Argument("id", .uint64), Argument("subject", .string), Argument("check", .string)])
}

/// A problem: `(id, subject, check, message, fix, opened_at, closed_at)`, times in seconds since the
/// epoch, `closed_at` 0 while open.
public struct ProblemRow: ContractRow {
    public var id: UInt64
    public var subject: String
    public var check: String
    public var message: String
    public var fix: String
    public var openedAt: Double
    public var closedAt: Double

    public static let fields = [
        Argument("id", .uint64), Argument("subject", .string), Argument("check", .string), Argument("message", .string), Argument("fix", .string),
        Argument("opened_at", .double), Argument("closed_at", .double),
    ]

    public init(id: UInt64, subject: String, check: String, message: String, fix: String, openedAt: Double, closedAt: Double) {
        self.id = id
        self.subject = subject
        self.check = check
        self.message = message
        self.fix = fix
        self.openedAt = openedAt
        self.closedAt = closedAt
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(
            id: try f.next(), subject: try f.next(), check: try f.next(), message: try f.next(), fix: try f.next(), openedAt: try f.next(),
            closedAt: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([.uint64(id), .string(subject), .string(check), .string(message), .string(fix), .double(openedAt), .double(closedAt)])
    }
}

/// A sample of the health history: `(at, subject, state, partition, routers, children)`, `at` in seconds
/// since the epoch; `state` empty and the numbers -1 where they did not change.
public struct SampleRow: ContractRow {
    public var at: Double
    public var subject: String
    public var state: String
    public var partition: Int64
    public var routers: Int64
    public var children: Int64

    public static let fields = [
        Argument("at", .double), Argument("subject", .string), Argument("state", .string), Argument("partition", .int64),
        Argument("routers", .int64), Argument("children", .int64),
    ]

    public init(at: Double, subject: String, state: String, partition: Int64, routers: Int64, children: Int64) {
        self.at = at
        self.subject = subject
        self.state = state
        self.partition = partition
        self.routers = routers
        self.children = children
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(at: try f.next(), subject: try f.next(), state: try f.next(), partition: try f.next(), routers: try f.next(), children: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([.double(at), .string(subject), .string(state), .int64(partition), .int64(routers), .int64(children)])
    }
}
