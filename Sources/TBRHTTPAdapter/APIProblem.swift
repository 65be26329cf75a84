import FoundationEssentials
import TBRCore

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
        type = "urn:tbrd:problem:" + condition.slug
        title = condition.title
        status = condition.status
        self.detail = detail
        exitStatus = condition.exitStatus
    }

    /// The conditions: the core's (spelled from ``TBRCore/CoreError/Condition``'s one table) and the HTTP
    /// layer's own.
    enum Condition: Sendable, Hashable {
        case core(CoreError.Condition)
        case unauthorized, forbidden, methodNotAllowed, tooManyAttempts

        static let notFound = Condition.core(.notFound)
        static let invalidArgument = Condition.core(.invalidArgument)

        var slug: String {
            switch self {
            case .core(let c): c.problemType
            case .unauthorized: "unauthorized"
            case .forbidden: "forbidden"
            case .methodNotAllowed: "method-not-allowed"
            case .tooManyAttempts: "too-many-attempts"
            }
        }

        var status: Int {
            switch self {
            case .core(let c): c.httpStatus
            case .unauthorized: 401
            case .forbidden: 403
            case .methodNotAllowed: 405
            case .tooManyAttempts: 429
            }
        }

        /// tbrctl's exit status for it (sysexits.h: 64 usage, 75 busy, 77 no permission).
        var exitStatus: Int {
            switch self {
            case .core(let c): Int(c.exitStatus)
            case .tooManyAttempts: 75
            case .unauthorized, .forbidden: 77
            case .methodNotAllowed: 64
            }
        }

        var title: String {
            switch self {
            case .core(let c): c.title
            case .unauthorized: "a valid token is needed"
            case .forbidden: "the token's scope does not allow this"
            case .methodNotAllowed: "method not allowed"
            case .tooManyAttempts: "too many failed attempts"
            }
        }
    }

    /// The problem for an error thrown while serving: the core's error, spelled for HTTP (never through
    /// the D-Bus adapter's names). The core throws nothing else; anything else is `failed`.
    static func from(_ error: any Error) -> APIProblem {
        let core = error as? CoreError ?? CoreError(.failed, "tbrd failed (\(Swift.type(of: error)))")
        let condition = Condition.core(core.condition)
        return APIProblem(condition, core.message.isEmpty ? condition.title : core.message)
    }
}
