public import OpenThreadBR

/// What `tbrctl mesh` shows; its JSON form is the contract of `tbrctl mesh --json`: `{router, partitionId,
/// leaderRouterId, networkData: {onMeshPrefixes: [{prefix, rloc16, preference, omr, flags}], externalRoutes:
/// [{prefix, rloc16, preference, stable}]}, nodes: [{extAddress, rloc16, role, routerId, source,
/// linkQualityIn, linkQualityOut, age, mode: {rxOnWhenIdle, fullThreadDevice}, timeout, parent, links:
/// [{rloc16, linkQualityIn, linkQualityOut}]}], horizon}`, null for what is unknown, RLOC16s as `0x0400`;
/// `horizon` says where the view ends (null: the whole mesh, from network diagnostics).
public struct MeshView: Sendable, Encodable {
    /// The router whose agent was read.
    public var router: String
    /// What it read.
    public var topology: MeshTopology

    public init(router: String, topology: MeshTopology) {
        self.router = router
        self.topology = topology
    }

    private enum Keys: String, CodingKey {
        case router, partitionId, leaderRouterId, networkData, nodes, horizon
        case onMeshPrefixes, externalRoutes
        case prefix, rloc16, preference, omr, flags, stable
        case extAddress, role, routerId, source, linkQualityIn, linkQualityOut, age, mode, timeout, parent, links
        case rxOnWhenIdle, fullThreadDevice
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(router, forKey: .router)
        try c.encode(topology.partitionID, forKey: .partitionId)
        try c.encode(topology.leaderRouterID, forKey: .leaderRouterId)
        var data = c.nestedContainer(keyedBy: Keys.self, forKey: .networkData)
        var prefixes = data.nestedUnkeyedContainer(forKey: .onMeshPrefixes)
        for p in topology.onMeshPrefixes {
            var e = prefixes.nestedContainer(keyedBy: Keys.self)
            try e.encode(p.prefix.description, forKey: .prefix)
            try e.encode(MeshNode.hex(p.rloc16), forKey: .rloc16)
            try e.encode(p.preference.rawValue, forKey: .preference)
            try e.encode(p.isOMR, forKey: .omr)
            try e.encode(p.flagNames, forKey: .flags)
        }
        var routes = data.nestedUnkeyedContainer(forKey: .externalRoutes)
        for r in topology.externalRoutes {
            var e = routes.nestedContainer(keyedBy: Keys.self)
            try e.encode(r.prefix.description, forKey: .prefix)
            try e.encode(MeshNode.hex(r.rloc16), forKey: .rloc16)
            try e.encode(r.preference.rawValue, forKey: .preference)
            try e.encode(r.stable, forKey: .stable)
        }
        var nodes = c.nestedUnkeyedContainer(forKey: .nodes)
        for n in topology.nodes { try Self.encode(n, into: nodes.nestedContainer(keyedBy: Keys.self)) }
        try c.encode(topology.horizon, forKey: .horizon)
    }

    private static func encode(_ n: MeshNode, into container: KeyedEncodingContainer<Keys>) throws {
        var e = container
        try e.encode(n.extAddress.description, forKey: .extAddress)
        try e.encode(n.rloc16Text, forKey: .rloc16)
        try e.encode(n.role.rawValue, forKey: .role)
        try e.encode(n.routerID, forKey: .routerId)
        try e.encode(n.source.rawValue, forKey: .source)
        try e.encode(n.linkQualityIn, forKey: .linkQualityIn)
        try e.encode(n.linkQualityOut, forKey: .linkQualityOut)
        try e.encode(n.age, forKey: .age)
        if let mode = n.mode {
            var m = e.nestedContainer(keyedBy: Keys.self, forKey: .mode)
            try m.encode(mode.rxOnWhenIdle, forKey: .rxOnWhenIdle)
            try m.encode(mode.fullThreadDevice, forKey: .fullThreadDevice)
        } else {
            try e.encodeNil(forKey: .mode)
        }
        try e.encode(n.timeout, forKey: .timeout)
        try e.encode(n.parent?.description, forKey: .parent)
        var links = e.nestedUnkeyedContainer(forKey: .links)
        for l in n.links {
            var le = links.nestedContainer(keyedBy: Keys.self)
            try le.encode(MeshNode.hex(l.rloc16), forKey: .rloc16)
            try le.encode(l.linkQualityIn, forKey: .linkQualityIn)
            try le.encode(l.linkQualityOut, forKey: .linkQualityOut)
        }
    }

    /// The nodes as a tree: the border router at the root, routers under the first router that links to
    /// them (breadth first), children under their parents; nodes nothing links to are roots of their own.
    public func tree() -> [(depth: Int, node: MeshNode)] {
        let nodes = topology.nodes
        var routerByRloc: [UInt16: Int] = [:]
        for (i, n) in nodes.enumerated() where n.role != .child { routerByRloc[n.rloc16] = i }
        var children: [Int: [Int]] = [:]
        var placed: Set<Int> = []
        var order: [Int] = []
        func place(from root: Int) {
            var queue = [root]
            placed.insert(root)
            while !queue.isEmpty {
                let i = queue.removeFirst()
                order.append(i)
                for l in nodes[i].links {
                    guard let j = routerByRloc[l.rloc16], placed.insert(j).inserted else { continue }
                    children[i, default: []].append(j)
                    queue.append(j)
                }
            }
        }
        for i in nodes.indices where nodes[i].role != .child && !placed.contains(i) { place(from: i) }
        var index: [String: Int] = [:]
        for (i, n) in nodes.enumerated() { index[n.extAddress.description] = i }
        var orphans: [Int] = []
        for (i, n) in nodes.enumerated() where n.role == .child {
            if let p = n.parent, let j = index[p.description], j != i { children[j, default: []].append(i) } else { orphans.append(i) }
        }
        var rows: [(Int, MeshNode)] = []
        var visited: Set<Int> = []
        func walk(_ i: Int, _ depth: Int) {
            guard visited.insert(i).inserted else { return }
            rows.append((depth, nodes[i]))
            for j in children[i, default: []] { walk(j, depth + 1) }
        }
        let roots = order.filter { i in !children.values.contains { $0.contains(i) } } + orphans
        for r in roots { walk(r, 0) }
        return rows
    }
}
