public import MeshCoP
public import TBRFoundation

/// The Thread mesh as one border router sees it: its partition, the network data and every node it knows.
/// Built fresh from the agent's tables on each read (``MeshTopology/init(tables:)``), or from network
/// diagnostics, which reach beyond the first radio hop.
public struct MeshTopology: Hashable, Sendable {
    /// The partition id; nil while detached.
    public var partitionID: UInt32?
    /// The leader's router id; nil while detached.
    public var leaderRouterID: UInt8?
    /// The network data's on-mesh prefixes.
    public var onMeshPrefixes: [OnMeshPrefix]
    /// The network data's external routes.
    public var externalRoutes: [ExternalRoute]
    /// The border router itself first, then routers by router id, then children by RLOC16.
    public var nodes: [MeshNode]
    /// Where the view ends, when it is not the whole mesh: "the agent's own neighbours and children: …"
    /// with why no more was read; nil when network diagnostics reported the mesh.
    public var horizon: String?

    /// A topology as given; ``nodes`` are put in their order.
    public init(
        partitionID: UInt32?, leaderRouterID: UInt8?, onMeshPrefixes: [OnMeshPrefix], externalRoutes: [ExternalRoute],
        nodes: [MeshNode], horizon: String? = nil
    ) {
        self.horizon = horizon
        self.partitionID = partitionID
        self.leaderRouterID = leaderRouterID
        self.onMeshPrefixes = onMeshPrefixes
        self.externalRoutes = externalRoutes
        self.nodes = nodes.sorted(by: MeshNode.displayOrder)
    }

    /// The node with extended address `address`.
    public func node(_ address: ExtendedAddress) -> MeshNode? { nodes.first { $0.extAddress == address } }

    /// The OMR prefixes of the network data, without duplicates (several border routers may publish one).
    public var omrPrefixes: [IPv6Prefix] {
        var seen: [IPv6Prefix] = []
        for p in onMeshPrefixes where p.isOMR && !seen.contains(p.prefix) { seen.append(p.prefix) }
        return seen
    }
}

/// A node of the mesh.
public struct MeshNode: Hashable, Sendable {
    /// A node's place in the mesh.
    public enum Role: String, Hashable, Sendable, CaseIterable {
        case leader, router, child
    }

    /// Where tbrd learnt of the node.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        /// The border router itself.
        case `self`
        /// Its neighbour table: one radio hop away.
        case neighborTable
        /// Network diagnostics: reported by the node, possibly several hops away.
        case diagnostics
    }

    /// A child's (or any node's) mode.
    public struct Mode: Hashable, Sendable {
        /// Its receiver stays on when idle (else it sleeps and polls its parent).
        public var rxOnWhenIdle: Bool
        /// It is a Full Thread Device (it can become a router).
        public var fullThreadDevice: Bool

        /// A mode as given.
        public init(rxOnWhenIdle: Bool, fullThreadDevice: Bool) {
            self.rxOnWhenIdle = rxOnWhenIdle
            self.fullThreadDevice = fullThreadDevice
        }
    }

    /// Its IEEE 802.15.4 extended address.
    public var extAddress: ExtendedAddress
    /// Its RLOC16.
    public var rloc16: UInt16
    /// Leader, router or child.
    public var role: Role
    /// How tbrd knows of it.
    public var source: Source
    /// Link quality (0–3) from it to the reporting router, as that router measures it; nil when unknown.
    public var linkQualityIn: UInt8?
    /// Link quality (0–3) from the reporting router to it; nil when unknown (the D-Bus API has no router
    /// table, so neighbours read over D-Bus have none).
    public var linkQualityOut: UInt8?
    /// Seconds since the reporting router last heard it; nil when unknown.
    public var age: UInt32?
    /// Its mode; nil when unknown.
    public var mode: Mode?
    /// A child's timeout in seconds; nil for routers and when unknown.
    public var timeout: UInt32?
    /// The router a child hangs off (a child border router: its parent); nil for routers.
    public var parent: ExtendedAddress?
    /// A router's radio links to other routers, as it reports them (the border router: its neighbour
    /// table; other routers: network diagnostics); empty for children.
    public var links: [MeshLink]

    /// A node as given.
    public init(
        extAddress: ExtendedAddress, rloc16: UInt16, role: Role, source: Source, linkQualityIn: UInt8? = nil,
        linkQualityOut: UInt8? = nil, age: UInt32? = nil, mode: Mode? = nil, timeout: UInt32? = nil,
        parent: ExtendedAddress? = nil, links: [MeshLink] = []
    ) {
        self.extAddress = extAddress
        self.rloc16 = rloc16
        self.role = role
        self.source = source
        self.linkQualityIn = linkQualityIn
        self.linkQualityOut = linkQualityOut
        self.age = age
        self.mode = mode
        self.timeout = timeout
        self.parent = parent
        self.links = links
    }

    /// Its router id (the RLOC16's top 6 bits) when it is a router or the leader.
    public var routerID: UInt8? { role == .child ? nil : Self.routerID(of: rloc16) }

    /// The router id an RLOC16 belongs to (a child's: its parent's).
    public static func routerID(of rloc16: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: rloc16 >> 10) }

    /// Whether `rloc16` names a router (its child bits are 0).
    public static func isRouterRloc(_ rloc16: UInt16) -> Bool { rloc16 & 0x01FF == 0 }

    /// `0x0400`: the RLOC16 as Thread tools write it.
    public var rloc16Text: String { Self.hex(rloc16) }

    /// `0x0400`.
    public static func hex(_ rloc16: UInt16) -> String {
        let digits = String(rloc16, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    static func displayOrder(_ a: MeshNode, _ b: MeshNode) -> Bool {
        func rank(_ n: MeshNode) -> Int { n.source == .self ? 0 : n.role == .child ? 2 : 1 }
        return (rank(a), a.rloc16, a.extAddress.rawValue) < (rank(b), b.rloc16, b.extAddress.rawValue)
    }
}

/// A radio link from one router to another, as the first one reports it.
public struct MeshLink: Hashable, Sendable {
    /// The other router's RLOC16.
    public var rloc16: UInt16
    /// Link quality (0–3) of what the reporting router hears from the other; nil when unknown.
    public var linkQualityIn: UInt8?
    /// Link quality (0–3) of what the other hears from the reporting router; nil when unknown.
    public var linkQualityOut: UInt8?

    /// A link as given.
    public init(rloc16: UInt16, linkQualityIn: UInt8?, linkQualityOut: UInt8?) {
        self.rloc16 = rloc16
        self.linkQualityIn = linkQualityIn
        self.linkQualityOut = linkQualityOut
    }
}
