public import DBus

extension TBRDBusAPI {
    /// `io.tbrd.BorderRouter1` at `/io/tbrd/router/<id>`: one border router's traits.
    public enum BorderRouter {
        /// The interface name.
        public static let interface: InterfaceName = "io.tbrd.BorderRouter1"

        /// `ActivateEpskcMode(q seconds) → (s status, s epskc, q validSeconds)`.
        public static let activateEpskcMode = MethodContract(
            "ActivateEpskcMode", inputs: [Argument("seconds", .uint16)], outputs: ActivateEpskcReply.declaration)
        /// `DeactivateEpskcMode(b retainActiveSession) → ()`.
        public static let deactivateEpskcMode = MethodContract(
            "DeactivateEpskcMode", inputs: [Argument("retainActiveSession", .boolean)])
        /// `JoinNetwork(ay tlvs, a{sv} options) → (s status, x delayMs, s message)`.
        public static let joinNetwork = MethodContract(
            "JoinNetwork",
            inputs: [Argument("tlvs", .array(.byte)), Argument("options", .dictionary(key: .string, value: .variant))],
            outputs: JoinNetworkReply.declaration)
        /// The only option `JoinNetwork` knows: move only this router (`b`).
        public static let thisRouterOnlyOption = "thisRouterOnly"
        /// `LeaveNetwork() → ()`.
        public static let leaveNetwork = MethodContract("LeaveNetwork")
        /// `EnergyScan(u duration_ms) → a(yn)`: the strongest energy (dBm) heard on each channel of the
        /// agent's preferred mask; `NotSupported` where the agent has no scan (REST). Admins only.
        public static let energyScan = MethodContract(
            "EnergyScan", inputs: [Argument("duration_ms", .uint32)],
            outputs: [Argument("energies", .array(.structure([.byte, .int16])))])
        /// `GetActiveDataset() → ay`.
        public static let getActiveDataset = MethodContract("GetActiveDataset", outputs: [Argument("tlvs", .array(.byte))])
        /// `GetPendingDataset() → ay`.
        public static let getPendingDataset = MethodContract("GetPendingDataset", outputs: [Argument("tlvs", .array(.byte))])

        /// `EpskcModeActivated(t sequence, s router, q validSeconds, x activatedAt)`.
        public static let epskcModeActivated = SignalContract("EpskcModeActivated", arguments: EpskcActivatedSignal.declaration)
        /// `EpskcModeDeactivated(t sequence, s router, s reason, s detail, x activatedAt, x deactivatedAt)`.
        public static let epskcModeDeactivated = SignalContract(
            "EpskcModeDeactivated", arguments: EpskcDeactivatedSignal.declaration)

        /// The properties of `io.tbrd.BorderRouter1`.
        public enum Property: String, PropertyContract {
            case id = "Id"
            case interface = "Interface"
            case transport = "Transport"
            case address = "Address"
            case online = "Online"
            case borderAgentId = "BorderAgentId"
            case role = "Role"
            case networkName = "NetworkName"
            case panId = "PanId"
            case extPanId = "ExtPanId"
            case channel = "Channel"
            case epskcSupported = "EpskcSupported"
            case internetAccessCapability = "InternetAccessCapability"
            case vendorName = "VendorName"
            case productName = "ProductName"
            case softwareVersion = "SoftwareVersion"
            case vendorId = "VendorId"
            case productId = "ProductId"
            case structure = "Structure"
            case epskcActive = "EpskcActive"

            public var type: SignatureType {
                switch self {
                case .online, .epskcSupported, .epskcActive: .boolean
                case .panId, .channel, .vendorId, .productId: .uint16
                default: .string
                }
            }

            /// Identity never changes; the summary (online, role, agent id, ePSKc) and the structure are
            /// signalled; what otbr-agent itself does not signal is read on demand and not signalled.
            public var emitsChanged: DBus.Property.ChangeSignal {
                switch self {
                case .id, .interface, .transport, .address: .const
                case .online, .borderAgentId, .role, .epskcActive, .structure: .true
                case .networkName, .panId, .extPanId, .channel, .epskcSupported, .internetAccessCapability, .vendorName,
                    .productName, .softwareVersion, .vendorId, .productId:
                    .false
                }
            }
        }
    }
}
