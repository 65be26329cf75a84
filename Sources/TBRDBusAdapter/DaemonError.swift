import BorderRouterService
import DBus
import TBRCoreServices
import TBRCore
import TBRDBusAPI

/// tbrd's errors meet the core's one error here (``TBRCore/CoreError``): what the device model, the
/// store and the bus throw becomes a condition and a sentence, and the D-Bus adapter spells the
/// condition as an `io.tbrd.Error.*` name (docs/dbus-api.md). The HTTP adapter spells the same
/// condition itself (``APIProblem``): neither goes through the other.
enum DaemonError {
    static func invalid(_ message: String) -> CoreError { ServiceError.invalid(message) }
    static func missing(_ message: String) -> CoreError { ServiceError.missing(message) }

    /// Any error thrown while serving a call, as the core's error: one of tbrd's D-Bus names by its
    /// condition; a value of the wrong type as an invalid argument; the rest as the core services map
    /// them (``TBRCoreServices/ServiceError/core(_:)``).
    static func core(_ error: any Error) -> CoreError {
        switch error {
        case let e as DBusError:
            let name = e.name.rawValue
            let condition = name.hasPrefix(TBRDBusAPI.errorPrefix)
                ? CoreError.Condition(dbusName: String(name.dropFirst(TBRDBusAPI.errorPrefix.count))) : nil
            return CoreError(condition ?? .failed, e.message.isEmpty ? name : e.message)
        case let e as DBusValueError: return CoreError(.invalidArgument, "an argument has the wrong type: \(e.description)")
        default: return ServiceError.core(error)
        }
    }

    /// The D-Bus error to send for any error thrown while serving a call: a bus error as it came (the
    /// standard `org.freedesktop.DBus.Error.*` replies), everything else through the core's error, its
    /// condition spelled as tbrd's name.
    static func from(_ error: any Error) -> DBusError {
        if let e = error as? DBusError { return e }
        let core = core(error)
        return DBusError(name(core.condition), core.message)
    }

    /// The D-Bus adapter's spelling of `condition` (`io.tbrd.Error.` + ``TBRCore/CoreError/Condition/dbusName``).
    static func name(_ condition: CoreError.Condition) -> ErrorName {
        switch condition {
        case .notFound: TBRDBusAPI.Error.notFound
        case .invalidArgument: TBRDBusAPI.Error.invalidArgument
        case .busy: TBRDBusAPI.Error.busy
        case .notSupported: TBRDBusAPI.Error.notSupported
        case .unavailable: TBRDBusAPI.Error.unavailable
        case .permissionDenied: TBRDBusAPI.Error.permissionDenied
        case .ambiguous: TBRDBusAPI.Error.ambiguous
        case .failed: TBRDBusAPI.Error.failed
        }
    }
}
