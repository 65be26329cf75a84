/// One simulated Thread node around the border router (control method `AddNode`).
struct MeshNode: Sendable, Equatable {
    /// What the node is in the partition.
    enum Kind: String, Sendable {
        case router, child
    }

    let kind: Kind
    /// The IEEE 802.15.4 extended address, as D-Bus `t` carries it (byte 0 the most significant).
    let extAddress: UInt64
    /// The router it hangs off: ``SimulatedMesh/borderRouter`` (0) for the border router itself.
    let parent: UInt64
    /// The router ID (0–62) of a router, the child ID (1–511) of a child.
    let id: UInt16
    /// Link quality (0–3) in both directions on the link to its parent.
    let linkQuality: UInt8
    let rxOnWhenIdle: Bool
    let fullThreadDevice: Bool
    /// The child timeout in seconds (0 for routers).
    let timeout: UInt32
    /// When it joined, on the agent's clock (the age in the tables counts from here).
    let added: ContinuousClock.Instant

    /// Whether it is a neighbour of the border router (one hop away).
    var isFirstHop: Bool { parent == SimulatedMesh.borderRouter }
}

/// Why `AddNode` refused a node: the message is the D-Bus error's text.
struct MeshError: Error, Equatable, CustomStringConvertible {
    let description: String
}

/// The simulated mesh around the border router: routers and children, each hanging off the border
/// router or off a simulated router (a tree). The routers' IDs and the children's IDs and child-table
/// slots are allocated here; the border router's own router ID comes from the agent.
///
/// It is the outside world, not the agent's state: it survives the agent's restarts, and the agent shows
/// it only while attached.
struct SimulatedMesh: Sendable {
    /// The parent value that names the border router.
    static let borderRouter: UInt64 = 0
    /// The largest router ID (`Mle::kMaxRouterId`).
    static let maxRouterID: UInt16 = 62
    /// The largest child ID (9 bits of the RLOC16).
    static let maxChildID: UInt16 = 511

    /// Every node, in the order added.
    private(set) var nodes: [MeshNode] = []
    /// The child table slots of each parent (``borderRouter`` or a router's extended address): the
    /// child's extended address, nil for an empty slot. A new child takes the first empty slot.
    private(set) var slots: [UInt64: [UInt64?]] = [:]

    /// The node with extended address `ext`.
    func node(_ ext: UInt64) -> MeshNode? { nodes.first { $0.extAddress == ext } }

    /// The routers, by router ID.
    var routers: [MeshNode] { nodes.filter { $0.kind == .router }.sorted { $0.id < $1.id } }

    /// The router IDs in use by simulated routers.
    var routerIDs: Set<UInt16> { Set(routers.map(\.id)) }

    /// The child table of `parent`, slot by slot (nil: an empty slot), without trailing empty slots.
    func childSlots(of parent: UInt64) -> [MeshNode?] {
        var table = (slots[parent] ?? []).map { ext in ext.flatMap { node($0) } }
        while let last = table.last, last == nil { table.removeLast() }
        return table
    }

    /// The children of `parent`, in slot order.
    func children(of parent: UInt64) -> [MeshNode] { childSlots(of: parent).compactMap { $0 } }

    /// The RLOC16 of `node`, given the border router's router ID: `id << 10` for a router, the parent's
    /// router ID `<< 10 | child ID` for a child.
    func rloc16(of node: MeshNode, borderRouterID: UInt8) -> UInt16 {
        switch node.kind {
        case .router: return node.id << 10
        case .child:
            let parentID = node.isFirstHop ? UInt16(borderRouterID) : (self.node(node.parent)?.id ?? 0)
            return parentID << 10 | node.id
        }
    }

    /// A router ID for the border router when it attaches: one no simulated router has, at random.
    func freeRouterIDForBorderRouter() -> UInt8 {
        let free = (0...Self.maxRouterID).filter { !routerIDs.contains($0) }
        return UInt8(free.randomElement() ?? 0)
    }

    /// Adds a node (`AddNode`): a router gets the lowest free router ID other than the border router's,
    /// a child the lowest free child ID of its parent and the parent's first empty slot.
    /// - Throws: ``MeshError`` for an extended address of 0 or one already present, an unknown parent or
    ///   one that is a child, a link quality above 3, or no free ID.
    mutating func add(
        kind: MeshNode.Kind, extAddress: UInt64, parent: UInt64, linkQuality: UInt8, rxOnWhenIdle: Bool,
        fullThreadDevice: Bool, timeout: UInt32, borderRouterID: UInt8, now: ContinuousClock.Instant
    ) throws(MeshError) -> MeshNode {
        guard extAddress != Self.borderRouter else { throw MeshError(description: "ext_address 0 is not an extended address") }
        guard node(extAddress) == nil else {
            throw MeshError(description: "a node with ext_address \(Self.hex(extAddress)) is already in the mesh")
        }
        if parent != Self.borderRouter {
            guard let p = node(parent) else {
                throw MeshError(description: "parent \(Self.hex(parent)) is neither 0 (the border router) nor a simulated router")
            }
            guard p.kind == .router else { throw MeshError(description: "parent \(Self.hex(parent)) is a child, not a router") }
        }
        guard linkQuality <= 3 else { throw MeshError(description: "link_quality \(linkQuality) is above 3") }
        let id: UInt16
        switch kind {
        case .router:
            let taken = routerIDs.union([UInt16(borderRouterID)])
            guard let free = (0...Self.maxRouterID).first(where: { !taken.contains($0) }) else {
                throw MeshError(description: "no free router ID (0–62) is left")
            }
            id = free
        case .child:
            let taken = Set(children(of: parent).map(\.id))
            guard let free = (1...Self.maxChildID).first(where: { !taken.contains($0) }) else {
                throw MeshError(description: "parent \(Self.hex(parent)) has no free child ID (1–511) left")
            }
            id = free
        }
        // A router is always an rx-on-when-idle full Thread device.
        let isRouter = kind == .router
        let added = MeshNode(
            kind: kind, extAddress: extAddress, parent: parent, id: id, linkQuality: linkQuality,
            rxOnWhenIdle: isRouter || rxOnWhenIdle, fullThreadDevice: isRouter || fullThreadDevice,
            timeout: isRouter ? 0 : timeout, added: now)
        nodes.append(added)
        if kind == .child {
            var table = slots[parent] ?? []
            if let empty = table.firstIndex(where: { $0 == nil }) { table[empty] = extAddress } else { table.append(extAddress) }
            slots[parent] = table
        }
        return added
    }

    /// Removes a node at once (`RemoveNode`): a child leaves its slot empty; a router takes with it its
    /// children and the routers that hang off it (and theirs), which have no other link to the partition.
    /// - Returns: whether the node was there.
    mutating func remove(_ ext: UInt64) -> Bool {
        guard let gone = node(ext) else { return false }
        if gone.kind == .router {
            for dependant in nodes where dependant.parent == ext && dependant.kind == .router { _ = remove(dependant.extAddress) }
            nodes.removeAll { $0.parent == ext }
            slots[ext] = nil
        } else if var table = slots[gone.parent], let slot = table.firstIndex(of: ext) {
            table[slot] = nil
            slots[gone.parent] = table
        }
        nodes.removeAll { $0.extAddress == ext }
        return true
    }

    /// `0x` and 16 hex digits.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
