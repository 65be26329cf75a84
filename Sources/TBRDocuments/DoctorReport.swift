public import TBRDBusAPI

/// What `tbrctl doctor` prints; its JSON form is `{router, checks: [{id, status, message, fix}]}`.
public struct DoctorReport: Sendable, Encodable {
    public var router: String?
    public var checks: [DiagnosticRow]

    public init(router: String?, checks: [DiagnosticRow]) {
        self.router = router
        self.checks = checks
    }

    private enum Keys: String, CodingKey { case router, checks, id, status, message, fix }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(router, forKey: .router)
        var list = c.nestedUnkeyedContainer(forKey: .checks)
        for check in checks {
            var e = list.nestedContainer(keyedBy: Keys.self)
            try e.encode(check.id, forKey: .id)
            try e.encode(check.status, forKey: .status)
            try e.encode(check.message, forKey: .message)
            try e.encode(check.fix, forKey: .fix)
        }
    }
}
