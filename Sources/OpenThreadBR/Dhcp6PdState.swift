/// The DHCPv6 prefix-delegation state otbr-agent announces in `PropertiesChanged` of `Dhcp6PdState`
/// (OpenThread `otBorderRoutingDhcp6PdState`). The property has no getter: it is only ever signalled.
public enum Dhcp6PdState: Hashable, Sendable, CustomStringConvertible {
    /// The feature is off.
    case disabled
    /// On, but the border routing manager is not running.
    case stopped
    /// On and requesting or using a delegated prefix.
    case running
    /// On, but another border router's prefix is in use.
    case idle
    /// A string this client does not know, kept as sent.
    case other(String)

    /// The state a wire string names.
    public init(wireName: String) {
        switch wireName {
        case "disabled": self = .disabled
        case "stopped": self = .stopped
        case "running": self = .running
        case "idle": self = .idle
        default: self = .other(wireName)
        }
    }

    /// The string on the wire.
    public var wireName: String {
        switch self {
        case .disabled: "disabled"
        case .stopped: "stopped"
        case .running: "running"
        case .idle: "idle"
        case .other(let s): s
        }
    }

    public var description: String { wireName }
}
