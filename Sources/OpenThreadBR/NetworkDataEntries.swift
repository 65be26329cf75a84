public import DBus
public import TBRFoundation

/// otbr-agent's `LeaderData`, `(uyyyy)`: the partition this router is in and who leads it. The agent
/// answers an error while detached.
public struct LeaderData: Hashable, Sendable, DBusRepresentable {
    /// The partition id.
    public var partitionID: UInt32
    /// The leader's weight.
    public var weighting: UInt8
    /// The full network data's version.
    public var dataVersion: UInt8
    /// The stable network data's version.
    public var stableDataVersion: UInt8
    /// The leader's router id.
    public var leaderRouterID: UInt8

    /// Leader data as given.
    public init(partitionID: UInt32, weighting: UInt8, dataVersion: UInt8, stableDataVersion: UInt8, leaderRouterID: UInt8) {
        self.partitionID = partitionID
        self.weighting = weighting
        self.dataVersion = dataVersion
        self.stableDataVersion = stableDataVersion
        self.leaderRouterID = leaderRouterID
    }

    public static var dbusType: SignatureType { .structure([.uint32, .byte, .byte, .byte, .byte]) }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: 5)
        self.init(
            partitionID: try f.next(), weighting: try f.next(), dataVersion: try f.next(), stableDataVersion: try f.next(),
            leaderRouterID: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([.uint32(partitionID), .byte(weighting), .byte(dataVersion), .byte(stableDataVersion), .byte(leaderRouterID)])
    }
}

/// A route preference of the network data: low, medium or high (OpenThread's -1, 0, 1, sent as a byte).
public enum RoutePreference: String, Hashable, Sendable, CaseIterable {
    case low, medium, high

    /// The preference of `byte` read as a signed value; an unknown value is medium (as OpenThread reads it).
    public init(byte: UInt8) {
        switch Int8(bitPattern: byte) {
        case ..<0: self = .low
        case 1...: self = .high
        default: self = .medium
        }
    }

    /// The byte on the wire.
    public var byte: UInt8 {
        switch self {
        case .low: 0xFF
        case .medium: 0
        case .high: 1
        }
    }
}

/// The `(ayy)` prefix of otbr-agent's network data entries: up to 16 prefix bytes (the agent sends 8 for a
/// /64) and the length in bits.
struct WirePrefix: DBusRepresentable {
    var prefix: IPv6Prefix

    init(_ prefix: IPv6Prefix) { self.prefix = prefix }

    static var dbusType: SignatureType { .structure([.array(.byte), .byte]) }

    init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: 2)
        let bytes: [UInt8] = try f.next()
        let length: UInt8 = try f.next()
        guard bytes.count <= 16, length <= 128, Int(length) <= bytes.count * 8 else {
            throw .invalid("a prefix of \(bytes.count) bytes cannot be \(length) bits long")
        }
        prefix = IPv6Prefix(address: bytes + Array(repeating: 0, count: 16 - bytes.count), length: Int(length))
    }

    var dbusValue: DBusValue {
        .structure([.bytes(Array(prefix.bytes.prefix((prefix.length + 7) / 8))), .byte(UInt8(prefix.length))])
    }
}

/// One on-mesh prefix of the network data (`OnMeshPrefixes`, `a((ayy)qybbbbbbbbb)`): a prefix a border
/// router offers to the mesh, with its flags.
public struct OnMeshPrefix: Hashable, Sendable, DBusRepresentable {
    /// The prefix.
    public var prefix: IPv6Prefix
    /// The RLOC16 of the border router that published it.
    public var rloc16: UInt16
    /// Its preference.
    public var preference: RoutePreference
    /// Addresses from it are preferred.
    public var preferred: Bool
    /// Nodes configure addresses from it themselves (SLAAC).
    public var slaac: Bool
    /// DHCPv6 hands out addresses from it.
    public var dhcp: Bool
    /// DHCPv6 gives other configuration.
    public var configure: Bool
    /// The publisher is a default route for it.
    public var defaultRoute: Bool
    /// The prefix is on-mesh.
    public var onMesh: Bool
    /// It is in the stable network data.
    public var stable: Bool
    /// The publisher is a DNS server (ND DNS).
    public var ndDns: Bool
    /// It is a Domain Prefix (Thread 1.2 domain unicast addresses).
    public var domainPrefix: Bool

    /// An entry as given.
    public init(
        prefix: IPv6Prefix, rloc16: UInt16, preference: RoutePreference, preferred: Bool, slaac: Bool, dhcp: Bool = false,
        configure: Bool = false, defaultRoute: Bool = false, onMesh: Bool, stable: Bool, ndDns: Bool = false,
        domainPrefix: Bool = false
    ) {
        self.prefix = prefix
        self.rloc16 = rloc16
        self.preference = preference
        self.preferred = preferred
        self.slaac = slaac
        self.dhcp = dhcp
        self.configure = configure
        self.defaultRoute = defaultRoute
        self.onMesh = onMesh
        self.stable = stable
        self.ndDns = ndDns
        self.domainPrefix = domainPrefix
    }

    /// Each flag's name, as tbrd's D-Bus API and tbrctl's JSON spell it.
    public static let flags: [(name: String, keyPath: any WritableKeyPath<OnMeshPrefix, Bool> & Sendable)] = [
        ("preferred", \.preferred), ("slaac", \.slaac), ("dhcp", \.dhcp), ("configure", \.configure),
        ("defaultRoute", \.defaultRoute), ("onMesh", \.onMesh), ("stable", \.stable), ("ndDns", \.ndDns),
        ("domainPrefix", \.domainPrefix),
    ]

    /// The names of the flags set, in ``flags``' order.
    public var flagNames: [String] { Self.flags.filter { self[keyPath: $0.keyPath] }.map(\.name) }

    /// A prefix with the flags `names` set (unknown names are ignored) and the others clear.
    public init(prefix: IPv6Prefix, rloc16: UInt16, preference: RoutePreference, flagNames names: Set<String>) {
        self.init(prefix: prefix, rloc16: rloc16, preference: preference, preferred: false, slaac: false, onMesh: false, stable: false)
        for flag in Self.flags where names.contains(flag.name) { self[keyPath: flag.keyPath] = true }
    }

    /// Whether this is an Off-Mesh-Routable (OMR) prefix, by OpenThread's rule (`IsValidOmrPrefix`): a /64
    /// that is neither link-local nor multicast, published on-mesh, for SLAAC, stable, and not a Domain
    /// Prefix. Thread devices take their routable address from it.
    public var isOMR: Bool {
        prefix.length == 64 && !prefix.isLinkLocal && prefix.bytes[0] != 0xFF && onMesh && slaac && stable && !domainPrefix
    }

    public static var dbusType: SignatureType {
        .structure([WirePrefix.dbusType, .uint16, .byte] + Array(repeating: .boolean, count: 9))
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: 12)
        prefix = try f.next(WirePrefix.self).prefix
        rloc16 = try f.next()
        preference = RoutePreference(byte: try f.next())
        preferred = try f.next()
        slaac = try f.next()
        dhcp = try f.next()
        configure = try f.next()
        defaultRoute = try f.next()
        onMesh = try f.next()
        stable = try f.next()
        ndDns = try f.next()
        domainPrefix = try f.next()
    }

    public var dbusValue: DBusValue {
        .structure(
            [WirePrefix(prefix).dbusValue, .uint16(rloc16), .byte(preference.byte)]
                + [preferred, slaac, dhcp, configure, defaultRoute, onMesh, stable, ndDns, domainPrefix].map { .bool($0) })
    }
}

/// One external route of the network data (`ExternalRoutes`, `a((ayy)qybb)`; the XML says a single struct,
/// the agent sends an array): a prefix beyond the mesh that a border router routes to.
public struct ExternalRoute: Hashable, Sendable, DBusRepresentable {
    /// The routed prefix (`::/0` for a default route).
    public var prefix: IPv6Prefix
    /// The RLOC16 of the border router that published it.
    public var rloc16: UInt16
    /// Its preference.
    public var preference: RoutePreference
    /// It is in the stable network data.
    public var stable: Bool
    /// The agent's own router is the next hop.
    public var nextHopIsSelf: Bool

    /// A route as given.
    public init(prefix: IPv6Prefix, rloc16: UInt16, preference: RoutePreference, stable: Bool, nextHopIsSelf: Bool) {
        self.prefix = prefix
        self.rloc16 = rloc16
        self.preference = preference
        self.stable = stable
        self.nextHopIsSelf = nextHopIsSelf
    }

    public static var dbusType: SignatureType { .structure([WirePrefix.dbusType, .uint16, .byte, .boolean, .boolean]) }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: 5)
        prefix = try f.next(WirePrefix.self).prefix
        rloc16 = try f.next()
        preference = RoutePreference(byte: try f.next())
        stable = try f.next()
        nextHopIsSelf = try f.next()
    }

    public var dbusValue: DBusValue {
        .structure([WirePrefix(prefix).dbusValue, .uint16(rloc16), .byte(preference.byte), .bool(stable), .bool(nextHopIsSelf)])
    }
}

extension AgentProperty where Value == LeaderData {
    /// `LeaderData`; an error while detached.
    public static var leaderData: Self { Self("LeaderData") }
}

extension AgentProperty where Value == [OnMeshPrefix] {
    /// `OnMeshPrefixes`: the network data's on-mesh prefixes.
    public static var onMeshPrefixes: Self { Self("OnMeshPrefixes") }
}

extension AgentProperty where Value == [ExternalRoute] {
    /// `ExternalRoutes`: the network data's external routes.
    public static var externalRoutes: Self { Self("ExternalRoutes") }
}

extension AgentProperty where Value == UInt8 {
    /// `RouterID` (y); `InvalidState` unless the role is router or leader.
    public static var routerID: Self { Self("RouterID") }
}

extension AgentProperty where Value == UInt32 {
    /// `PartitionID` (u; the XML's `PartitionId` is not registered): 0 while detached.
    public static var partitionID: Self { Self("PartitionID") }
}

extension AgentProperty where Value == Bool {
    /// `MultiAilDetected` (b): the mesh's border routers are on more than one infrastructure link.
    public static var multiAilDetected: Self { Self("MultiAilDetected") }
}
