public import MeshCoP

/// What one border router's agent says about the mesh around it, as read (``BorderRouterAgent/readMeshTables()``):
/// the raw material of a ``MeshTopology``.
public struct MeshTables: Hashable, Sendable {
    /// Its role.
    public var role: DeviceRole
    /// Its extended address.
    public var extAddress: ExtendedAddress
    /// Its RLOC16 (0xFFFE while detached).
    public var rloc16: UInt16
    /// Its leader data; nil while detached.
    public var leaderData: LeaderData?
    /// `NeighborTable`.
    public var neighbors: [NeighborEntry]
    /// `ChildTable` (as far as the agent lists it).
    public var children: [ChildEntry]
    /// `OnMeshPrefixes`.
    public var onMeshPrefixes: [OnMeshPrefix]
    /// `ExternalRoutes`.
    public var externalRoutes: [ExternalRoute]

    /// Tables as given.
    public init(
        role: DeviceRole, extAddress: ExtendedAddress, rloc16: UInt16, leaderData: LeaderData?, neighbors: [NeighborEntry],
        children: [ChildEntry], onMeshPrefixes: [OnMeshPrefix], externalRoutes: [ExternalRoute]
    ) {
        self.role = role
        self.extAddress = extAddress
        self.rloc16 = rloc16
        self.leaderData = leaderData
        self.neighbors = neighbors
        self.children = children
        self.onMeshPrefixes = onMeshPrefixes
        self.externalRoutes = externalRoutes
    }
}

extension MeshTopology {
    /// The mesh one border router's tables show: the router itself, every neighbour, and its children.
    ///
    /// Children come from `NeighborTable`'s child entries, whose RLOC16s are right and which list every
    /// child; `ChildTable` only adds each child's timeout, because the agent stops it at the first empty
    /// slot and never sets its RLOC16 (`../shared/otbr/README.md`, "With real neighbours"). A child border
    /// router's parent is the one router in its neighbour table. Nothing is listed while detached but the
    /// router itself.
    public init(tables t: MeshTables) {
        let attached = t.role.isAttached
        let leaderID = attached ? t.leaderData?.leaderRouterID : nil
        func routerRole(_ rloc16: UInt16) -> MeshNode.Role {
            MeshNode.routerID(of: rloc16) == leaderID ? .leader : .router
        }
        let selfRole: MeshNode.Role = t.role == .child ? .child : routerRole(t.rloc16)
        let neighbors = attached ? t.neighbors : []
        let parent = t.role == .child ? neighbors.first { !$0.isChild }?.extAddress : nil
        let links = neighbors.filter { !$0.isChild && MeshNode.isRouterRloc($0.rloc16) }.map {
            MeshLink(rloc16: $0.rloc16, linkQualityIn: $0.linkQualityIn, linkQualityOut: nil)
        }
        var nodes = [
            MeshNode(
                extAddress: t.extAddress, rloc16: t.rloc16, role: selfRole, source: .self,
                mode: MeshNode.Mode(rxOnWhenIdle: true, fullThreadDevice: true), parent: parent,
                links: t.role == .child ? [] : links)
        ]
        let timeouts = Dictionary(t.children.map { ($0.extAddress, $0.timeout) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<ExtendedAddress> = [t.extAddress]
        for n in neighbors where seen.insert(n.extAddress).inserted {
            let isChild = n.isChild || !MeshNode.isRouterRloc(n.rloc16)
            nodes.append(
                MeshNode(
                    extAddress: n.extAddress, rloc16: n.rloc16, role: isChild ? .child : routerRole(n.rloc16),
                    source: .neighborTable, linkQualityIn: n.linkQualityIn, age: n.age,
                    mode: MeshNode.Mode(rxOnWhenIdle: n.rxOnWhenIdle, fullThreadDevice: n.fullThreadDevice),
                    timeout: isChild ? timeouts[n.extAddress] : nil, parent: isChild ? t.extAddress : nil))
        }
        self.init(
            partitionID: leaderID == nil ? nil : t.leaderData?.partitionID, leaderRouterID: leaderID,
            onMeshPrefixes: attached ? t.onMeshPrefixes : [], externalRoutes: attached ? t.externalRoutes : [], nodes: nodes)
    }
}
