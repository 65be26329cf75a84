/// What `tbrctl info` shows about one border router; its JSON form is the contract of
/// `tbrctl --json info`: `{id, transport, address, borderAgentId, basicInformation:{vendorName, vendorId,
/// productId, productName, softwareVersion}, capabilities:{epskcSupported, internetAccessOption},
/// network:{role, networkName, panId, extPanId, channel}}`, with null for what is unknown.
struct RouterInfo: Sendable, Hashable, Encodable {
    /// Matter `BasicInformation`.
    struct BasicInformation: Sendable, Hashable, Encodable {
        /// The maker's name; empty when unknown.
        var vendorName: String
        /// The Matter vendor id; nil when not configured.
        var vendorId: UInt16?
        /// The Matter product id; nil when not configured.
        var productId: UInt16?
        /// The product name; empty when unknown.
        var productName: String
        /// The otbr-agent version; empty when unknown.
        var softwareVersion: String

        private enum CodingKeys: String, CodingKey {
            case vendorName, vendorId, productId, productName, softwareVersion
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(vendorName, forKey: .vendorName)
            try c.encode(vendorId, forKey: .vendorId)
            try c.encode(productId, forKey: .productId)
            try c.encode(productName, forKey: .productName)
            try c.encode(softwareVersion, forKey: .softwareVersion)
        }
    }

    /// `ThreadNetworkCapabilities`.
    struct Capabilities: Sendable, Hashable, Encodable {
        /// Whether the router supports ePSKc.
        var epskcSupported: Bool
        /// `unspecified`, `none`, `all`, `nat64Only` or `dhcpv6PdOnly`.
        var internetAccessOption: String
    }

    /// The router's role and the network of its active dataset.
    struct Network: Sendable, Hashable, Encodable {
        /// The Thread role; nil when unknown.
        var role: String?
        /// The network name; nil without an active dataset.
        var networkName: String?
        /// The PAN ID; nil without an active dataset.
        var panId: UInt16?
        /// The extended PAN ID, 16 lower-case hex digits; nil without an active dataset.
        var extPanId: String?
        /// The channel; nil without an active dataset.
        var channel: UInt16?

        private enum CodingKeys: String, CodingKey {
            case role, networkName, panId, extPanId, channel
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(role, forKey: .role)
            try c.encode(networkName, forKey: .networkName)
            try c.encode(panId, forKey: .panId)
            try c.encode(extPanId, forKey: .extPanId)
            try c.encode(channel, forKey: .channel)
        }
    }

    /// The router id.
    var id: String
    /// How its agent is reached: `dbus` or `rest`.
    var transport: String
    /// Where: the agent's bus name, or its REST API's URL.
    var address: String
    /// Its Border Agent ID in hex; nil when unknown.
    var borderAgentId: String?
    /// Who made it and what it runs.
    var basicInformation: BasicInformation
    /// What it can do.
    var capabilities: Capabilities
    /// Its network.
    var network: Network
    /// The otbr-agent interface (text output only).
    var interface: String
    /// Whether its otbr-agent is on the bus (text output only).
    var online: Bool

    private enum CodingKeys: String, CodingKey {
        case id, transport, address, borderAgentId, basicInformation, capabilities, network
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(transport, forKey: .transport)
        try c.encode(address, forKey: .address)
        try c.encode(borderAgentId, forKey: .borderAgentId)
        try c.encode(basicInformation, forKey: .basicInformation)
        try c.encode(capabilities, forKey: .capabilities)
        try c.encode(network, forKey: .network)
    }

    /// The text form: one field per line, aligned.
    func render() -> String {
        let n = network
        let rows: [(String, String)] = [
            ("Router", "\(id) (\(transport == "rest" ? address : "interface \(interface)"), \(online ? "online" : "offline"))"),
            ("Border Agent ID", borderAgentId.orDash),
            ("Vendor", basicInformation.vendorName.isEmpty ? "-" : basicInformation.vendorName),
            ("Vendor ID", basicInformation.vendorId.map { "\($0)" } ?? "-"),
            ("Product", basicInformation.productName.isEmpty ? "-" : basicInformation.productName),
            ("Product ID", basicInformation.productId.map { "\($0)" } ?? "-"),
            ("Software version", basicInformation.softwareVersion.isEmpty ? "-" : basicInformation.softwareVersion),
            ("ePSKc", capabilities.epskcSupported ? "supported" : "not supported"),
            ("Internet access", capabilities.internetAccessOption),
            ("Role", n.role.orDash),
            ("Network name", n.networkName.orDash),
            ("PAN ID", n.panId.map { PANText.hex($0) } ?? "-"),
            ("Extended PAN ID", n.extPanId.orDash),
            ("Channel", n.channel.map { "\($0)" } ?? "-"),
        ]
        return TextTable.fields(rows)
    }
}

/// PAN IDs as text.
enum PANText {
    /// `0x1234`.
    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
