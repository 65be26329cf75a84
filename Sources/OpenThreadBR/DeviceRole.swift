/// A Thread device role as otbr-agent reports it in `DeviceRole`: a string, not the integers the
/// interface XML's comment shows (OpenThread `otThreadDeviceRoleToString`).
public enum DeviceRole: Hashable, Sendable, CustomStringConvertible {
    /// Thread is off.
    case disabled
    /// Thread is on but not attached to a partition.
    case detached
    /// Attached as a child.
    case child
    /// Attached as a router.
    case router
    /// Attached as the partition's leader.
    case leader
    /// A string this client does not know, kept as sent.
    case other(String)

    /// The role a wire string names.
    public init(wireName: String) {
        switch wireName {
        case "disabled": self = .disabled
        case "detached": self = .detached
        case "child": self = .child
        case "router": self = .router
        case "leader": self = .leader
        default: self = .other(wireName)
        }
    }

    /// The string on the wire.
    public var wireName: String {
        switch self {
        case .disabled: "disabled"
        case .detached: "detached"
        case .child: "child"
        case .router: "router"
        case .leader: "leader"
        case .other(let s): s
        }
    }

    /// True for child, router and leader: the node is part of a Thread partition.
    public var isAttached: Bool {
        switch self {
        case .child, .router, .leader: true
        default: false
        }
    }

    public var description: String { wireName }
}
