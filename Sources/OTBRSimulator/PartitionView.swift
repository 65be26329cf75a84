import MeshCoP

/// The partition as network diagnostics see it at one moment: the border router (always leader) and the
/// simulated mesh, with what every node would answer about itself. Built by the agent while attached
/// (``SimulatedAgent/partitionView()``), read by the REST API's diagnostics and devices.
struct PartitionView: Sendable {
    /// One node of the partition: the border router or a simulated node.
    enum Subject: Sendable, Equatable {
        case borderRouter
        case node(MeshNode)
    }

    let mesh: SimulatedMesh
    let borderRouterExt: UInt64
    let borderRouterID: UInt8
    let leaderData: LeaderDataValue
    /// The full Network Data TLVs.
    let networkData: [UInt8]
    let meshLocalPrefix: MeshLocalPrefix
    /// The favoured OMR prefix (its 8 bytes) that nodes make an address from, if any.
    let omrPrefix: UInt64?
    /// Whether the border router has external routes in the Network Data (`isBorderRouter`).
    let borderRouterHasRoutes: Bool
    let borderRouterEUI64: UInt64
    let vendorName: String, productName: String
    let now: ContinuousClock.Instant

    /// The node with extended address `ext`.
    func subject(_ ext: UInt64) -> Subject? {
        if ext == borderRouterExt { return .borderRouter }
        return mesh.node(ext).map { .node($0) }
    }

    func ext(_ s: Subject) -> UInt64 {
        if case .node(let n) = s { return n.extAddress }
        return borderRouterExt
    }

    func rloc16(_ s: Subject) -> UInt16 {
        if case .node(let n) = s { return mesh.rloc16(of: n, borderRouterID: borderRouterID) }
        return UInt16(borderRouterID) << 10
    }

    func isRouter(_ s: Subject) -> Bool { rloc16(s) & 0x1FF == 0 }

    /// Rx-on-when-idle, full Thread device, full network data.
    func mode(_ s: Subject) -> (rxOnWhenIdle: Bool, fullThreadDevice: Bool, fullNetworkData: Bool) {
        if case .node(let n) = s { return (n.rxOnWhenIdle, n.fullThreadDevice, true) }
        return (true, true, true)
    }

    /// The routers by router ID: the border router and every simulated router.
    var routers: [Subject] { ([.borderRouter] + mesh.routers.map { .node($0) }).sorted { rloc16($0) < rloc16($1) } }

    /// The router a node hangs off (the border router for first-hop nodes); nil for the border router.
    func parent(_ s: Subject) -> Subject? {
        guard case .node(let n) = s else { return nil }
        return n.isFirstHop ? .borderRouter : mesh.node(n.parent).map { .node($0) }
    }

    /// The routers one link away from router `s`, each with the link quality of that link.
    func routerNeighbours(_ s: Subject) -> [(router: Subject, linkQuality: UInt8)] {
        var result: [(Subject, UInt8)] = []
        if case .node(let n) = s, let up = parent(s) { result.append((up, n.linkQuality)) }
        for r in mesh.routers where r.parent == (s == .borderRouter ? SimulatedMesh.borderRouter : ext(s)) {
            result.append((.node(r), r.linkQuality))
        }
        return result.sorted { rloc16($0.0) < rloc16($1.0) }
    }

    /// The children of router `s`, in child-table order.
    func children(_ s: Subject) -> [MeshNode] {
        mesh.children(of: s == .borderRouter ? SimulatedMesh.borderRouter : ext(s))
    }

    /// The cost of a link of `linkQuality` (`kCostForLinkQuality`: 3 → 1, 2 → 2, 1 → 4, 0 → 16).
    static func linkCost(_ linkQuality: UInt8) -> Int { [16, 4, 2, 1][Int(min(linkQuality, 3))] }

    /// The path cost from router `a` to router `b` over the tree; nil at 16 or more (unreachable).
    func pathCost(_ a: Subject, _ b: Subject) -> Int? {
        func up(_ s: Subject) -> [(Subject, Int)] {
            var path: [(Subject, Int)] = [(s, 0)]
            var cost = 0
            var current = s
            while case .node(let n) = current, let p = parent(current) {
                cost += Self.linkCost(n.linkQuality)
                path.append((p, cost))
                current = p
            }
            return path
        }
        let fromA = up(a), fromB = up(b)
        var best: Int?
        for (node, costA) in fromA {
            if let costB = fromB.first(where: { $0.0 == node })?.1 { best = min(best ?? .max, costA + costB) }
        }
        guard let best, best < 16 else { return nil }
        return best
    }

    /// The mesh-local EID's interface identifier of the node with `ext` (made up from it: the bytes reversed).
    static func mlEIDIID(_ ext: UInt64) -> UInt64 { ext.byteSwapped }

    /// The OMR address's interface identifier (made up: the extended address with the U/L bit flipped).
    static func omrIID(_ ext: UInt64) -> UInt64 { ext ^ 0x0200_0000_0000_0000 }

    /// The node's IPv6 addresses: mesh-local EID, RLOC, (the leader ALOC for the border router) and an
    /// OMR address when the Network Data has an OMR prefix.
    func addresses(_ s: Subject) -> [String] {
        var list = [
            meshLocalPrefix.address(interfaceIdentifier: Self.mlEIDIID(ext(s))),
            meshLocalPrefix.address(interfaceIdentifier: 0x0000_00FF_FE00_0000 | UInt64(rloc16(s))),
        ]
        if s == .borderRouter { list.append(meshLocalPrefix.address(interfaceIdentifier: 0x0000_00FF_FE00_FC00)) }
        if let omrPrefix { list.append(MeshLocalPrefix(rawValue: omrPrefix).address(interfaceIdentifier: Self.omrIID(ext(s)))) }
        return list
    }

    /// `0x5000`: lower-case hex, four digits (`Number2HexJson`).
    static func hex16(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// 16 lower-case hex digits (`Bytes2HexJson` of 8 bytes).
    static func hex64(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
