/// Which message bus to connect to.
public enum Bus: Sendable, Hashable, CustomStringConvertible {
    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS` if set, else the standard socket).
    case system
    /// The session bus (`DBUS_SESSION_BUS_ADDRESS`).
    case session
    /// A bus at a D-Bus address such as `unix:path=/tmp/test-bus`.
    case address(String)

    /// Parses the command-line form used by tbrd, tbrctl and otbr-sim: `system`, `session`, or an address.
    public init(argument: String) {
        switch argument {
        case "system": self = .system
        case "session": self = .session
        default: self = .address(argument)
        }
    }

    public var description: String {
        switch self {
        case .system: "system"
        case .session: "session"
        case .address(let a): a
        }
    }
}
