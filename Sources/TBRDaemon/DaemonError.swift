import DBus
import DeviceModel
import Store
import TBRDBusAPI

/// tbrd's D-Bus errors (`io.tbrd.Error.*`), each with a human sentence; see docs/dbus-api.md.
enum DaemonError {
    static let notFound = TBRDBusAPI.Error.notFound
    static let invalidArgument = TBRDBusAPI.Error.invalidArgument
    static let busy = TBRDBusAPI.Error.busy
    static let notSupported = TBRDBusAPI.Error.notSupported
    static let unavailable = TBRDBusAPI.Error.unavailable
    static let permissionDenied = TBRDBusAPI.Error.permissionDenied
    static let failed = TBRDBusAPI.Error.failed

    /// The D-Bus error for a device-model error: its code picks the name, its sentence is the message.
    static func from(_ error: HomeError) -> DBusError {
        let name: ErrorName =
            switch error.code {
            case .notFound: notFound
            case .invalidArgument: invalidArgument
            case .busy: busy
            case .notSupported: notSupported
            case .unavailable: unavailable
            case .permissionDenied: permissionDenied
            case .invalidState, .failed: failed
            }
        return DBusError(name, error.message)
    }

    /// The D-Bus error for a store error: as the device model maps it.
    static func from(_ error: StoreError) -> DBusError { from(PersistentStructureStore.homeError(error)) }

    /// Any error thrown while serving a call, as the D-Bus error to send: tbrd's own names with their
    /// sentences; a bus error as it came (the standard `org.freedesktop.DBus.Error.*` replies); a cancelled
    /// call as `Unavailable` (tbrd is stopping); anything else as `Failed` with its description.
    static func from(_ error: any Error) -> DBusError {
        switch error {
        case let e as DBusError: e
        case let e as HomeError: from(e)
        case let e as StoreError: from(e)
        case let e as DBusValueError: DBusError(invalidArgument, "an argument has the wrong type: \(e.description)")
        case is CancellationError: DBusError(unavailable, "tbrd is stopping")
        case let e as any CustomStringConvertible: DBusError(failed, e.description)
        default: DBusError(failed, "tbrd failed (\(type(of: error)))")
        }
    }

    static func invalid(_ message: String) -> DBusError { DBusError(invalidArgument, message) }
    static func missing(_ message: String) -> DBusError { DBusError(notFound, message) }
}
