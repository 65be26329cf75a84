public import DBus

/// otbr-agent's `InfraLinkInfo` property, `(sbbbuuu)`: the infrastructure (LAN) interface the border
/// router routes to, and what it knows of it.
public struct InfraLinkInfo: Hashable, Sendable, DBusRepresentable {
    /// The interface's name, e.g. `eth0`.
    public var name: String
    /// Whether it is up.
    public var isUp: Bool
    /// Whether it is running.
    public var isRunning: Bool
    /// Whether it is multicast-capable.
    public var isMulticast: Bool
    /// How many link-local addresses it has.
    public var linkLocalAddresses: UInt32
    /// How many unique local addresses it has.
    public var uniqueLocalAddresses: UInt32
    /// How many global unicast addresses it has.
    public var globalUnicastAddresses: UInt32

    /// A value as given.
    public init(
        name: String, isUp: Bool, isRunning: Bool, isMulticast: Bool, linkLocalAddresses: UInt32 = 0,
        uniqueLocalAddresses: UInt32 = 0, globalUnicastAddresses: UInt32 = 0
    ) {
        self.name = name
        self.isUp = isUp
        self.isRunning = isRunning
        self.isMulticast = isMulticast
        self.linkLocalAddresses = linkLocalAddresses
        self.uniqueLocalAddresses = uniqueLocalAddresses
        self.globalUnicastAddresses = globalUnicastAddresses
    }

    public static var dbusType: SignatureType { .structure([.string, .boolean, .boolean, .boolean, .uint32, .uint32, .uint32]) }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: 7)
        self.init(
            name: try f.next(), isUp: try f.next(), isRunning: try f.next(), isMulticast: try f.next(),
            linkLocalAddresses: try f.next(), uniqueLocalAddresses: try f.next(), globalUnicastAddresses: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([
            .string(name), .bool(isUp), .bool(isRunning), .bool(isMulticast), .uint32(linkLocalAddresses),
            .uint32(uniqueLocalAddresses), .uint32(globalUnicastAddresses),
        ])
    }
}

extension AgentProperty where Value == InfraLinkInfo {
    /// `InfraLinkInfo`: the infrastructure interface.
    public static var infraLinkInfo: Self { Self("InfraLinkInfo") }
}
