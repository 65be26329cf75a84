public import MeshCoP
public import OpenThreadBR

extension MeshTopology {
    /// The mesh network diagnostics report, as seen from the border router `me` (its extended address):
    /// every router that answered and the children each lists, marked as reported by diagnostics, the
    /// border router itself as `self`. Routers carry their links to neighbouring routers (Route64: link
    /// quality in and out); a router's own link qualities are those the border router reports for it, a
    /// child's link quality in and age those its parent reports (its link margin and when it last heard it). The
    /// diagnostics asked for carry no network data: the prefixes are left empty.
    public init(me: ExtendedAddress, diagnostics d: NetworkDiagnostics) {
        let leaderID = d.leaderData?.leaderRouterID
        let myNode = d.node(extAddress: me.rawValue)
        let myLinks = Dictionary((myNode?.neighbourLinks ?? []).map { ($0.routerID, $0) }, uniquingKeysWith: { a, _ in a })
        var nodes: [MeshNode] = []
        for n in d.nodes {
            let address = ExtendedAddress(rawValue: n.extAddress)
            let role: MeshNode.Role = n.role == .child ? .child : n.routerID == leaderID ? .leader : .router
            let link = n.routerID.flatMap { myLinks[$0] }
            // A router's link qualities are the border router's Route64 entry for it; a child's is what its
            // parent measures (link margin), and only one way.
            let parent = n.role == .child ? d.parent(of: n).map { ExtendedAddress(rawValue: $0.extAddress) } : nil
            nodes.append(
                MeshNode(
                    extAddress: address, rloc16: n.rloc16, role: role, source: address == me ? .self : .diagnostics,
                    linkQualityIn: n.role == .child ? n.linkQuality : link?.linkQualityIn, linkQualityOut: link?.linkQualityOut,
                    age: n.role == .child ? n.age : nil,
                    mode: n.mode.map { MeshNode.Mode(rxOnWhenIdle: $0.rxOnWhenIdle, fullThreadDevice: $0.fullThreadDevice) },
                    timeout: n.role == .child ? n.childTimeout : nil, parent: parent,
                    links: n.neighbourLinks.map {
                        MeshLink(rloc16: UInt16($0.routerID) << 10, linkQualityIn: $0.linkQualityIn, linkQualityOut: $0.linkQualityOut)
                    }))
        }
        self.init(
            partitionID: d.leaderData?.partitionID, leaderRouterID: leaderID, onMeshPrefixes: [], externalRoutes: [], nodes: nodes)
    }
}

extension MeshTopology {
    /// The mesh of a border router read over D-Bus (`tables`: its own neighbours and children, the
    /// network data) widened by its agent's network diagnostics (`diagnostics`: every router that answered
    /// and the children each lists). A node both know keeps what the neighbour table measured (age, link
    /// quality in) and gains what diagnostics add (its parent, its links); nodes only one knows are kept;
    /// the partition, leader and network data are the D-Bus ones.
    public init(tables: MeshTopology, widenedBy diagnostics: MeshTopology) {
        var byAddress = Dictionary(tables.nodes.map { ($0.extAddress, $0) }, uniquingKeysWith: { a, _ in a })
        var nodes: [MeshNode] = []
        for var node in diagnostics.nodes {
            if let direct = byAddress.removeValue(forKey: node.extAddress) {
                node.source = direct.source
                node.linkQualityIn = direct.linkQualityIn ?? node.linkQualityIn
                node.age = direct.age ?? node.age
                node.mode = direct.mode ?? node.mode
                node.timeout = direct.timeout ?? node.timeout
                node.parent = direct.parent ?? node.parent
                if node.links.isEmpty { node.links = direct.links }
            }
            nodes.append(node)
        }
        nodes += tables.nodes.filter { byAddress[$0.extAddress] != nil }
        self.init(
            partitionID: tables.partitionID ?? diagnostics.partitionID, leaderRouterID: tables.leaderRouterID ?? diagnostics.leaderRouterID,
            onMeshPrefixes: tables.onMeshPrefixes, externalRoutes: tables.externalRoutes, nodes: nodes)
    }
}
