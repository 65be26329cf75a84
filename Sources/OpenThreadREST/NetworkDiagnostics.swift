public import OpenThreadBR

/// The Thread mesh around a border router as its REST API's network diagnostics describe it
/// (`getNetworkDiagnosticTask` results in `/api/diagnostics`, ot-br-posix `src/rest/json.cpp`): every
/// router that answered, with the links of its Route64, and every child those routers list.
///
/// Read one with ``RESTAgent/networkDiagnostics(timeout:)``, or decode a `/api/diagnostics` document
/// with `decode(_:keeping:)`.
public struct NetworkDiagnostics: Hashable, Sendable {
    /// The nodes, routers and children, by RLOC16.
    public var nodes: [Node]
    /// The leader data the routers report (the first router's that has it).
    public var leaderData: LeaderData?
    /// Extended addresses of devices that were asked but gave no diagnostics (gone, asleep, or the task
    /// ran out of time).
    public var unanswered: [UInt64]

    /// A diagnostics result as given.
    public init(nodes: [Node], leaderData: LeaderData?, unanswered: [UInt64] = []) {
        self.nodes = nodes
        self.leaderData = leaderData
        self.unanswered = unanswered
    }

    /// A node's role, from its RLOC16: a router when the child bits (the low 9) are 0.
    public enum Role: String, Hashable, Sendable {
        case router, child
    }

    /// A node's mode (Mode TLV): whether it keeps its receiver on, is a full Thread device, and wants
    /// the full Network Data.
    public struct Mode: Hashable, Sendable {
        public var rxOnWhenIdle: Bool
        public var fullThreadDevice: Bool
        public var fullNetworkData: Bool

        /// A mode as given.
        public init(rxOnWhenIdle: Bool, fullThreadDevice: Bool, fullNetworkData: Bool) {
            self.rxOnWhenIdle = rxOnWhenIdle
            self.fullThreadDevice = fullThreadDevice
            self.fullNetworkData = fullNetworkData
        }
    }

    /// One entry of a router's Route64: the link to another router and the cost to reach it.
    public struct RouterLink: Hashable, Sendable {
        /// The other router's ID (0–62).
        public var routerID: UInt8
        /// Link quality (0–3) of what this router hears from it; 0 when it is no neighbour.
        public var linkQualityIn: UInt8
        /// Link quality (0–3) the other router reports hearing from this one; 0 when it is no neighbour.
        public var linkQualityOut: UInt8
        /// The path cost to it (0: unreachable).
        public var routeCost: UInt8

        /// A link as given.
        public init(routerID: UInt8, linkQualityIn: UInt8, linkQualityOut: UInt8, routeCost: UInt8) {
            self.routerID = routerID
            self.linkQualityIn = linkQualityIn
            self.linkQualityOut = linkQualityOut
            self.routeCost = routeCost
        }

        /// Whether the other router is a neighbour (one link away in either direction).
        public var isNeighbour: Bool { linkQualityIn > 0 || linkQualityOut > 0 }
    }

    /// The partition's leader data (Leader Data TLV): the same value D-Bus `LeaderData` reads.
    public typealias LeaderData = OpenThreadBR.LeaderData

    /// One node of the mesh.
    public struct Node: Hashable, Sendable {
        /// The IEEE 802.15.4 extended address, byte 0 the most significant.
        public var extAddress: UInt64
        public var rloc16: UInt16
        /// Its mode, when reported.
        public var mode: Mode?
        /// A router's Route64: every router of the partition it knows, itself included (link qualities
        /// 0, cost 1); empty for a child, or when not reported.
        public var routes: [RouterLink]
        /// A child's timeout in seconds, when reported (by its parent, or by a sleepy child itself).
        public var childTimeout: UInt32?
        /// Seconds since a child's parent last heard it, when its parent reported it (`age` of the
        /// parent's `children` entry).
        public var age: UInt32?
        /// A child's link margin in dB as its parent measures it, when reported (`linkMargin` of the
        /// parent's `children` entry).
        public var linkMargin: UInt8?
        /// The leader data it reported.
        public var leaderData: LeaderData?

        /// A node as given.
        public init(
            extAddress: UInt64, rloc16: UInt16, mode: Mode? = nil, routes: [RouterLink] = [], childTimeout: UInt32? = nil,
            age: UInt32? = nil, linkMargin: UInt8? = nil, leaderData: LeaderData? = nil
        ) {
            self.extAddress = extAddress
            self.rloc16 = rloc16
            self.mode = mode
            self.routes = routes
            self.childTimeout = childTimeout
            self.age = age
            self.linkMargin = linkMargin
            self.leaderData = leaderData
        }

        /// The link quality (0–3) of a child's link margin, by the Thread specification's thresholds
        /// (above 20 dB: 3, above 10: 2, above 2: 1), as OpenThread's `LinkQualityForLinkMargin` computes it
        /// for a link it has no earlier quality for; nil when no margin was reported.
        public var linkQuality: UInt8? {
            linkMargin.map { margin in margin > 20 ? 3 : margin > 10 ? 2 : margin > 2 ? 1 : 0 }
        }

        /// Router when the RLOC16's child bits are 0, else child.
        public var role: Role { rloc16 & 0x1FF == 0 ? .router : .child }

        /// A router's ID (the RLOC16's upper 6 bits); nil for a child.
        public var routerID: UInt8? { role == .router ? UInt8(rloc16 >> 10) : nil }

        /// A child's parent's RLOC16 (its own with the child bits cleared); nil for a router.
        public var parentRloc16: UInt16? { role == .child ? rloc16 & 0xFC00 : nil }

        /// A router's links to its neighbouring routers (Route64 entries with a link quality).
        public var neighbourLinks: [RouterLink] { routes.filter { $0.isNeighbour && $0.routerID != routerID } }
    }

    /// The node with extended address `ext`.
    public func node(extAddress ext: UInt64) -> Node? { nodes.first { $0.extAddress == ext } }

    /// The node with RLOC16 `rloc16`.
    public func node(rloc16: UInt16) -> Node? { nodes.first { $0.rloc16 == rloc16 } }

    /// The router a child hangs off, when it answered.
    public func parent(of child: Node) -> Node? { child.parentRloc16.flatMap { node(rloc16: $0) } }
}
