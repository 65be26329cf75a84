/// What `tbrctl info` shows about one border router; its JSON form is the contract of
/// `tbrctl --json info`: `{id, transport, address, borderAgentId, basicInformation:{vendorName, vendorId,
/// productId, productName, softwareVersion}, capabilities:{epskcSupported, internetAccessOption},
/// network:{role, networkName, panId, extPanId, channel}}`, with null for what is unknown.
public struct RouterInfo: Sendable, Hashable, Encodable {
    /// Matter `BasicInformation`.
    public struct BasicInformation: Sendable, Hashable, Encodable {
        /// The maker's name; empty when unknown.
        public var vendorName: String
        /// The Matter vendor id; nil when not configured.
        public var vendorId: UInt16?
        /// The Matter product id; nil when not configured.
        public var productId: UInt16?
        /// The product name; empty when unknown.
        public var productName: String
        /// The otbr-agent version; empty when unknown.
        public var softwareVersion: String

        private enum CodingKeys: String, CodingKey {
            case vendorName, vendorId, productId, productName, softwareVersion
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(vendorName, forKey: .vendorName)
            try c.encode(vendorId, forKey: .vendorId)
            try c.encode(productId, forKey: .productId)
            try c.encode(productName, forKey: .productName)
            try c.encode(softwareVersion, forKey: .softwareVersion)
        }

        /// A value as given.
        public init(vendorName: String, vendorId: UInt16?, productId: UInt16?, productName: String, softwareVersion: String) {
            self.vendorName = vendorName
            self.vendorId = vendorId
            self.productId = productId
            self.productName = productName
            self.softwareVersion = softwareVersion
        }
    }

    /// `ThreadNetworkCapabilities`.
    public struct Capabilities: Sendable, Hashable, Encodable {
        /// Whether the router supports ePSKc.
        public var epskcSupported: Bool
        /// `unspecified`, `none`, `all`, `nat64Only` or `dhcpv6PdOnly`.
        public var internetAccessOption: String

        /// A value as given.
        public init(epskcSupported: Bool, internetAccessOption: String) {
            self.epskcSupported = epskcSupported
            self.internetAccessOption = internetAccessOption
        }
    }

    /// The router's role and the network of its active dataset.
    public struct Network: Sendable, Hashable, Encodable {
        /// The Thread role; nil when unknown.
        public var role: String?
        /// The network name; nil without an active dataset.
        public var networkName: String?
        /// The PAN ID; nil without an active dataset.
        public var panId: UInt16?
        /// The extended PAN ID, 16 lower-case hex digits; nil without an active dataset.
        public var extPanId: String?
        /// The channel; nil without an active dataset.
        public var channel: UInt16?

        private enum CodingKeys: String, CodingKey {
            case role, networkName, panId, extPanId, channel
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(role, forKey: .role)
            try c.encode(networkName, forKey: .networkName)
            try c.encode(panId, forKey: .panId)
            try c.encode(extPanId, forKey: .extPanId)
            try c.encode(channel, forKey: .channel)
        }

        /// A value as given.
        public init(role: String?, networkName: String?, panId: UInt16?, extPanId: String?, channel: UInt16?) {
            self.role = role
            self.networkName = networkName
            self.panId = panId
            self.extPanId = extPanId
            self.channel = channel
        }
    }

    /// The router id.
    public var id: String
    /// How its agent is reached: `dbus` or `rest`.
    public var transport: String
    /// Where: the agent's bus name, or its REST API's URL.
    public var address: String
    /// Its Border Agent ID in hex; nil when unknown.
    public var borderAgentId: String?
    /// Who made it and what it runs.
    public var basicInformation: BasicInformation
    /// What it can do.
    public var capabilities: Capabilities
    /// Its network.
    public var network: Network
    /// The otbr-agent interface (text output only).
    public var interface: String
    /// Whether its otbr-agent is on the bus (text output only).
    public var online: Bool

    private enum CodingKeys: String, CodingKey {
        case id, transport, address, borderAgentId, basicInformation, capabilities, network
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(transport, forKey: .transport)
        try c.encode(address, forKey: .address)
        try c.encode(borderAgentId, forKey: .borderAgentId)
        try c.encode(basicInformation, forKey: .basicInformation)
        try c.encode(capabilities, forKey: .capabilities)
        try c.encode(network, forKey: .network)
    }


    /// A value as given.
    public init(id: String, transport: String, address: String, borderAgentId: String?, basicInformation: BasicInformation, capabilities: Capabilities, network: Network, interface: String, online: Bool) {
        self.id = id
        self.transport = transport
        self.address = address
        self.borderAgentId = borderAgentId
        self.basicInformation = basicInformation
        self.capabilities = capabilities
        self.network = network
        self.interface = interface
        self.online = online
    }
}
