/// One check of `tbrctl doctor`: `{id, status, message, fix}`.
public struct DoctorCheck: Sendable, Hashable, Encodable {
    /// How a check came out.
    public enum Status: String, Sendable, Hashable, Encodable, CaseIterable {
        case pass, warn, fail, unsupported
    }

    /// The check's id (`agent-attached`, `omr-route`, …).
    public var id: String
    public var status: Status
    /// What was read and what it means.
    public var message: String
    /// What to do about it; empty when it passed.
    public var fix: String

    /// A check as given.
    public init(id: String, status: Status, message: String, fix: String) {
        self.id = id
        self.status = status
        self.message = message
        self.fix = fix
    }
}

/// What `tbrctl doctor` prints; its JSON form is `{router, checks: [{id, status, message, fix}]}`.
public struct DoctorReport: Sendable, Encodable {
    public var router: String?
    public var checks: [DoctorCheck]

    public init(router: String?, checks: [DoctorCheck]) {
        self.router = router
        self.checks = checks
    }

    private enum Keys: String, CodingKey { case router, checks }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(router, forKey: .router)
        try c.encode(checks, forKey: .checks)
    }
}
