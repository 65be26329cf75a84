public import DeviceModel

/// A problem tbrd found and keeps open until its check passes again (issue 49): `tbrctl --json health`'s
/// rows, `GET /api/v1/health`, and `Manager1.Problems`.
public struct HealthProblem: Sendable, Hashable, Encodable {
    /// Its number, never reused.
    public var id: Int64
    /// The router it is about (its id), or `host`.
    public var subject: String
    /// The check that found it (`thread-attached`, `router-lost`, …: the doctor's ids).
    public var check: String
    /// What was read and what it means, as it was when the problem opened.
    public var message: String
    /// What to do about it (may be empty).
    public var fix: String
    public var openedAt: WallTime
    /// When its check passed again; nil while it is open.
    public var closedAt: WallTime?

    public init(id: Int64, subject: String, check: String, message: String, fix: String, openedAt: WallTime, closedAt: WallTime?) {
        self.id = id
        self.subject = subject
        self.check = check
        self.message = message
        self.fix = fix
        self.openedAt = openedAt
        self.closedAt = closedAt
    }

    /// Every member, the times in ISO 8601 UTC, `closedAt` null while open.
    public func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey { case id, subject, check, message, fix, openedAt, closedAt }
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(subject, forKey: .subject)
        try c.encode(check, forKey: .check)
        try c.encode(message, forKey: .message)
        try c.encode(fix, forKey: .fix)
        try c.encode(openedAt.description, forKey: .openedAt)
        try c.encode(closedAt?.description, forKey: .closedAt)
    }

    /// The subject of a problem about this host rather than a router.
    public static let host = "host"
}
