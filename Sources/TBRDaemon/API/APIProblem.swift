import DBus
import FoundationEssentials
import TBRDBusAPI

/// An RFC 9457 problem document, the body of every error the HTTPS API answers. `type` names the same
/// condition as tbrctl's exit status (`exitStatus`, docs/cli.md), so a script can treat both alike.
struct APIProblem: Encodable, Sendable, Hashable {
    /// `urn:tbrd:problem:not-found`, …
    var type: String
    /// The condition in words, the same for every problem of the type.
    var title: String
    /// The HTTP status.
    var status: Int
    /// What happened, one sentence (never a secret).
    var detail: String
    /// tbrctl's exit status for the same condition.
    var exitStatus: Int

    /// A problem of condition `condition` with `detail`.
    init(_ condition: Condition, _ detail: String) {
        type = "urn:tbrd:problem:" + condition.rawValue
        title = condition.title
        status = condition.status
        self.detail = detail
        exitStatus = condition.exitStatus
    }

    /// The conditions: tbrd's D-Bus errors and the HTTP layer's own.
    enum Condition: String, Sendable, CaseIterable {
        case notFound = "not-found", invalidArgument = "invalid-argument", busy, notSupported = "not-supported"
        case unavailable, permissionDenied = "permission-denied", failed
        case unauthorized, forbidden, methodNotAllowed = "method-not-allowed", tooManyAttempts = "too-many-attempts"

        var status: Int {
            switch self {
            case .notFound: 404
            case .invalidArgument: 400
            case .busy: 409
            case .notSupported: 501
            case .unavailable: 503
            case .permissionDenied, .forbidden: 403
            case .failed: 500
            case .unauthorized: 401
            case .methodNotAllowed: 405
            case .tooManyAttempts: 429
            }
        }

        /// tbrctl's exit status for it (sysexits.h: 65 data error, 69 unavailable, 75 busy, 77 no permission).
        var exitStatus: Int {
            switch self {
            case .invalidArgument: 65
            case .busy, .tooManyAttempts: 75
            case .unavailable: 69
            case .permissionDenied, .unauthorized, .forbidden: 77
            case .methodNotAllowed: 64
            case .notFound, .notSupported, .failed: 1
            }
        }

        var title: String {
            switch self {
            case .notFound: "not found"
            case .invalidArgument: "invalid argument"
            case .busy: "busy"
            case .notSupported: "not supported"
            case .unavailable: "unavailable"
            case .permissionDenied: "permission denied"
            case .failed: "failed"
            case .unauthorized: "a valid token is needed"
            case .forbidden: "the token's scope does not allow this"
            case .methodNotAllowed: "method not allowed"
            case .tooManyAttempts: "too many failed attempts"
            }
        }
    }

    /// The problem for an error thrown while serving: mapped once, through the same D-Bus error the
    /// D-Bus adapter would send (DaemonError).
    static func from(_ error: any Error) -> APIProblem {
        let bus = DaemonError.from(error)
        let condition: Condition =
            switch bus.name {
            case TBRDBusAPI.Error.notFound: .notFound
            case TBRDBusAPI.Error.invalidArgument: .invalidArgument
            case TBRDBusAPI.Error.busy: .busy
            case TBRDBusAPI.Error.notSupported: .notSupported
            case TBRDBusAPI.Error.unavailable: .unavailable
            case TBRDBusAPI.Error.permissionDenied: .permissionDenied
            default: .failed
            }
        return APIProblem(condition, bus.message.isEmpty ? condition.title : bus.message)
    }
}
