import TBRFoundation
import TBRDBusAPI
import BorderRouterService
import DBus
import OpenThreadBR
import TBRCommandLine
import TBRCore

/// How failures become tbrctl's exit statuses: the one place that maps tbrd's `io.tbrd.Error.*` names
/// (through the core's table, `TBRCore`'s `CoreError.Condition`), the bus's own errors, the device
/// model's error codes (direct mode) and the operation statuses.
///
/// | failure | status |
/// |---|---|
/// | `NotFound`, `NotSupported`, `Failed`, `invalidState`, anything unknown | 1 |
/// | `InvalidArgument` (a dataset or name tbrd refused) | 65 |
/// | `Unavailable`; the bus or tbrd not answering or leaving the bus | 69 |
/// | `Busy` | 75 |
/// | `PermissionDenied`; the bus's `AccessDenied` (tbrd's D-Bus policy) | 77 |
/// | `Ambiguous` (a name that matches more than one border agent) | 64 |
enum ErrorMapping {
    /// The exit status of tbrd's error `Name` (the part after `io.tbrd.Error.`): the core's one table
    /// (``TBRCore/CoreError/Condition/exitStatus``); 1 for a name it does not have (one added later).
    static func exitCode(tbrdError name: String) -> ExitCode {
        guard let condition = CoreError.Condition(dbusName: name) else { return .failure }
        return ExitCode(condition.exitStatus)
    }

    /// The exit status of a device-model error code (direct mode), mapped like tbrd's names.
    static func exitCode(_ code: HomeError.Code) -> ExitCode {
        switch code {
        case .invalidArgument: .dataError
        case .busy: .temporaryFailure
        case .unavailable: .unavailable
        case .permissionDenied: .permissionDenied
        case .notFound, .invalidState, .notSupported, .failed: .failure
        }
    }

    /// The exit status of an `epskc activate` status: `success` 0, `busy` 75, any other 1.
    static func exitCode(activationStatus status: OperationStatus) -> ExitCode {
        switch status {
        case .success: .success
        case .busy: .temporaryFailure
        case .notSupported, .invalidState, .invalidArgument, .failed: .failure
        }
    }

    /// The exit status of `structure policy` once its routers settled: 1 when any router is `failed` or
    /// `unsupported`, else 0 (offline routers stay `pending`, which is not an error).
    static func exitCode(policyStates states: [RouterPolicyStatus.State]) -> ExitCode {
        states.contains { $0 == .failed || $0 == .unsupported } ? .failure : .success
    }

    /// The exit status of a `network join` status: `success` 0, `busy` 75, `invalidArgument` 65 (the
    /// router refused the dataset), any other 1.
    static func exitCode(networkStatus status: OperationStatus) -> ExitCode {
        switch status {
        case .success: .success
        case .busy: .temporaryFailure
        case .invalidArgument: .dataError
        case .notSupported, .invalidState, .failed: .failure
        }
    }

    /// Any error a device command meets, as a ``ControlError`` with its status and one sentence.
    /// - Parameter doing: what was being done, for messages that need it, e.g. `ActivateEpskcMode on wpan0`.
    static func controlError(_ error: any Error, doing: String) -> ControlError {
        switch error {
        case let error as ControlError: return error
        case let error as DBusError: return controlError(error, doing: doing)
        case let error as HomeError: return ControlError(exitCode: exitCode(error.code), message: error.message)
        case let error as AgentError:
            let home = BorderRouterService.homeError(
                for: error, command: error.operation, device: DeviceID(stringLiteral: error.interfaceName.rawValue))
            return ControlError(exitCode: exitCode(home.code), message: error.description)
        case let error as DBusValueError:
            return .failure("\(doing) failed: tbrd sent an unexpected reply (\(error))")
        case is CancellationError: return .failure("\(doing) was cancelled")
        default: return .failure("\(doing) failed: \(error)")
        }
    }

    /// A D-Bus error reply from tbrd or the bus.
    static func controlError(_ error: DBusError, doing: String) -> ControlError {
        let name = error.name.rawValue
        if name.hasPrefix(TBRDBusAPI.errorPrefix) {
            let short = String(name.dropFirst(TBRDBusAPI.errorPrefix.count))
            let message = error.message.isEmpty ? "\(doing) failed: tbrd answered \(name)" : error.message
            return ControlError(exitCode: exitCode(tbrdError: short), message: message)
        }
        let detail = error.message.isEmpty ? name : error.message
        switch error.name {
        case .accessDenied:
            return ControlError(
                exitCode: .permissionDenied,
                message: "permission denied: \(doing) needs root or membership of group tbrd-admin (\(detail))")
        case .serviceUnknown, .nameHasNoOwner:
            return .unavailable("\(doing) failed: tbrd is not on the bus (\(detail))")
        case .noReply, .timeout:
            return .unavailable("\(doing) failed: tbrd did not answer (\(detail))")
        case .disconnected:
            return .unavailable("\(doing) failed: the connection to the bus was lost (\(detail))")
        default:
            return .failure("\(doing) failed: \(error)")
        }
    }
}
