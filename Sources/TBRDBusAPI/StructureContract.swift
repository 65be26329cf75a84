public import DBus

extension TBRDBusAPI {
    /// `io.tbrd.Structure1` at `/io/tbrd/structure/<id>`: a home and its Thread network settings.
    public enum Structure {
        /// The interface name.
        public static let interface: InterfaceName = "io.tbrd.Structure1"

        /// The properties of `io.tbrd.Structure1`.
        public enum Property: String, PropertyContract {
            case name = "Name"
            case internetAccessOption = "InternetAccessOption"
            case defaultThreadNetworkId = "DefaultThreadNetworkId"
            case borderRouters = "BorderRouters"
            case policyStatus = "PolicyStatus"
            case matterNodes = "MatterNodes"
            case rooms = "Rooms"

            public var type: SignatureType {
                switch self {
                case .name, .internetAccessOption, .defaultThreadNetworkId: .string
                case .borderRouters: .array(.objectPath)
                case .rooms: .array(.string)
                case .policyStatus: [PolicyStatusRow].dbusType
                case .matterNodes: [MatterNodeRow].dbusType
                }
            }

            /// A structure is never renamed; its settings, membership, policy status, Matter nodes and rooms
            /// are signalled.
            public var emitsChanged: DBus.Property.ChangeSignal {
                switch self {
                case .name: .const
                case .internetAccessOption, .defaultThreadNetworkId, .borderRouters, .policyStatus, .matterNodes, .rooms: .true
                }
            }

            /// Whether a client may write it (the admin policy applies).
            public var isWritable: Bool { self == .internetAccessOption || self == .defaultThreadNetworkId }
        }

        /// The D-Bus spellings of `ThreadNetworkSettings.internetAccessOption`.
        public static let internetAccessOptions = ["unspecified", "none", "all", "nat64Only", "dhcpv6PdOnly"]

        /// The states of a `PolicyStatus` row.
        public static let policyStates = ["applied", "pending", "failed", "unsupported"]
    }
}
