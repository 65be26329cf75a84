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
            case networks = "Networks"
            case preferredNetwork = "PreferredNetwork"
            case migration = "Migration"
            case recovery = "Recovery"

            public var type: SignatureType {
                switch self {
                case .name, .internetAccessOption, .defaultThreadNetworkId, .preferredNetwork, .recovery: .string
                case .networks: [NetworkRow].dbusType
                case .migration: MigrationRow.dbusType
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
                case .internetAccessOption, .defaultThreadNetworkId, .borderRouters, .policyStatus, .matterNodes, .rooms, .networks,
                    .preferredNetwork, .migration, .recovery:
                    .true
                }
            }

            /// Whether a client may write it (the admin policy applies).
            public var isWritable: Bool { [.internetAccessOption, .defaultThreadNetworkId, .preferredNetwork, .recovery].contains(self) }
        }

        /// `AddNetwork(ay dataset) → s ext_pan_id`: a complete Active dataset into the directory. Admins only.
        public static let addNetwork = MethodContract(
            "AddNetwork", inputs: [Argument("dataset", .array(.byte))], outputs: [Argument("ext_pan_id", .string)])
        /// `RemoveNetwork(s ext_pan_id) → ()`: out of the directory, credentials deleted; refused while a
        /// router of the structure is on it. Admins only.
        public static let removeNetwork = MethodContract("RemoveNetwork", inputs: [Argument("ext_pan_id", .string)])
        /// `GetNetworkDataset(s ext_pan_id) → ay`: the Active dataset tbrd holds for it (secrets included).
        /// Admins only.
        public static let getNetworkDataset = MethodContract(
            "GetNetworkDataset", inputs: [Argument("ext_pan_id", .string)], outputs: [Argument("dataset", .array(.byte))])

        /// The D-Bus spellings of `ThreadNetworkSettings.internetAccessOption`.
        public static let internetAccessOptions = ["unspecified", "none", "all", "nat64Only", "dhcpv6PdOnly"]

        /// The states of a `PolicyStatus` row.
        public static let policyStates = ["applied", "pending", "failed", "unsupported"]
    }
}
