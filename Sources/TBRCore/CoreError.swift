/// The one error tbrd's core throws: a condition and one sentence for a person (never a secret).
/// Every adapter derives its own spelling of the condition from ``Condition``'s one table: the D-Bus
/// adapter its `io.tbrd.Error.*` name, the HTTP adapter its status and RFC 9457 problem type, tbrctl
/// its exit status. No adapter maps through another's.
public struct CoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Condition: String, Sendable, Hashable, CaseIterable {
        /// No such router, structure, network, token, session…
        case notFound
        /// A value the caller gave is wrong: a dataset, a name, a delay.
        case invalidArgument
        /// Something else holds what the call needs (a migration, an ePSKc session, a commissioning): try later.
        case busy
        /// The router or the host cannot do this at all.
        case notSupported
        /// What the call needs is not there now: an agent not running, tbrd stopping, a tool missing.
        case unavailable
        /// The caller may not do this (a wrong ePSKc, a policy refusal).
        case permissionDenied
        /// A name that matches more than one thing (border agents with the same name).
        case ambiguous
        /// Anything else; the sentence says what.
        case failed
    }

    public var condition: Condition
    /// One sentence saying what happened.
    public var message: String

    /// An error of `condition` saying `message`.
    public init(_ condition: Condition, _ message: String) {
        self.condition = condition
        self.message = message
    }

    public var description: String { message }
}

/// The one table: each condition's spelling in every adapter.
///
/// | condition | D-Bus (`io.tbrd.Error.`) | HTTP | problem type | tbrctl exit |
/// |---|---|---|---|---|
/// | notFound | NotFound | 404 | not-found | 1 |
/// | invalidArgument | InvalidArgument | 400 | invalid-argument | 65 |
/// | busy | Busy | 409 | busy | 75 |
/// | notSupported | NotSupported | 501 | not-supported | 1 |
/// | unavailable | Unavailable | 503 | unavailable | 69 |
/// | permissionDenied | PermissionDenied | 403 | permission-denied | 77 |
/// | ambiguous | Ambiguous | 400 | ambiguous | 64 |
/// | failed | Failed | 500 | failed | 1 |
extension CoreError.Condition {
    /// The last part of its D-Bus error name, `io.tbrd.Error.` + this.
    public var dbusName: String {
        switch self {
        case .notFound: "NotFound"
        case .invalidArgument: "InvalidArgument"
        case .busy: "Busy"
        case .notSupported: "NotSupported"
        case .unavailable: "Unavailable"
        case .permissionDenied: "PermissionDenied"
        case .ambiguous: "Ambiguous"
        case .failed: "Failed"
        }
    }

    /// The condition a D-Bus error name's last part spells; nil for a name this table does not have.
    public init?(dbusName: String) {
        guard let found = Self.allCases.first(where: { $0.dbusName == dbusName }) else { return nil }
        self = found
    }

    /// Its HTTP status.
    public var httpStatus: Int {
        switch self {
        case .notFound: 404
        case .invalidArgument, .ambiguous: 400
        case .busy: 409
        case .notSupported: 501
        case .unavailable: 503
        case .permissionDenied: 403
        case .failed: 500
        }
    }

    /// Its RFC 9457 problem type's last part (`urn:tbrd:problem:` + this).
    public var problemType: String {
        switch self {
        case .notFound: "not-found"
        case .invalidArgument: "invalid-argument"
        case .busy: "busy"
        case .notSupported: "not-supported"
        case .unavailable: "unavailable"
        case .permissionDenied: "permission-denied"
        case .ambiguous: "ambiguous"
        case .failed: "failed"
        }
    }

    /// The condition in words, the same for every error of it.
    public var title: String {
        switch self {
        case .notFound: "not found"
        case .invalidArgument: "invalid argument"
        case .busy: "busy"
        case .notSupported: "not supported"
        case .unavailable: "unavailable"
        case .permissionDenied: "permission denied"
        case .ambiguous: "ambiguous"
        case .failed: "failed"
        }
    }

    /// tbrctl's exit status for it (sysexits.h: 64 usage, 65 data error, 69 unavailable, 75 busy,
    /// 77 no permission; 1 otherwise).
    public var exitStatus: Int32 {
        switch self {
        case .invalidArgument: 65
        case .busy: 75
        case .unavailable: 69
        case .permissionDenied: 77
        case .ambiguous: 64
        case .notFound, .notSupported, .failed: 1
        }
    }
}
