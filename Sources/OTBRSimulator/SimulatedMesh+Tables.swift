import DBus

/// The border router's own tables as its D-Bus getters return them (`GetNeighborTableHandler`,
/// `GetChildTableHandler` in ot-br-posix's `dbus_thread_object_rcp.cpp`), one-hop nodes only.
extension SimulatedMesh {
    /// What the real agent's `ChildTable` carries in the RLOC16 field, which its handler never sets (an
    /// uninitialised stack variable, reused for every row): a fixed, plausible-looking wrong value.
    static let unsetChildRloc16: UInt16 = 0xDEAD

    /// The Thread version neighbours report: Thread 1.4 (`kThreadVersion1p4`).
    static let threadVersion: UInt16 = 5

    /// The average RSSI of a link of `linkQuality`, over a -100 dBm noise floor: OpenThread derives the
    /// link quality from the link margin (more than 20 dB: 3, 10: 2, 2: 1, else 0).
    static func averageRSSI(linkQuality: UInt8) -> Int8 {
        switch linkQuality {
        case 3: -70
        case 2: -86
        case 1: -94
        default: -99
        }
    }

    /// Seconds since `node` joined (the real agent counts seconds since it last heard the node).
    static func age(of node: MeshNode, now: ContinuousClock.Instant) -> UInt32 {
        UInt32(clamping: max(0, (now - node.added).components.seconds))
    }

    /// `NeighborTable` (`a(tuquuyyyqqqbbbb)`): OpenThread lists the child table first (slot order), then
    /// the neighbouring routers by router ID (`NeighborTable::GetNextNeighborInfo`).
    func neighborTable(borderRouterID: UInt8, now: ContinuousClock.Instant) -> [DBusValue] {
        let neighbours = children(of: Self.borderRouter) + routers.filter(\.isFirstHop)
        return neighbours.map { node in
            let age = Self.age(of: node, now: now)
            let rssi = UInt8(bitPattern: Self.averageRSSI(linkQuality: node.linkQuality))
            return .structure([
                .uint64(node.extAddress), .uint32(age), .uint16(rloc16(of: node, borderRouterID: borderRouterID)),
                .uint32(Self.linkFrameCounter(age: age)), .uint32(Self.mleFrameCounter(age: age)), .byte(node.linkQuality),
                .byte(rssi), .byte(rssi), .uint16(0), .uint16(0), .uint16(Self.threadVersion), .bool(node.rxOnWhenIdle),
                .bool(node.fullThreadDevice), .bool(true), .bool(node.kind == .child),
            ])
        }
    }

    /// `ChildTable` (`a(tuuqqyyyyqqbbbb)`) with the real agent's two defects: the RLOC16 is
    /// ``unsetChildRloc16`` in every row, and the list stops at the first empty child slot
    /// (`otThreadGetChildInfoByIndex` fails there and the handler's loop ends).
    func childTable(networkDataVersion: UInt8, now: ContinuousClock.Instant) -> [DBusValue] {
        var rows: [DBusValue] = []
        for slot in childSlots(of: Self.borderRouter) {
            guard let node = slot else { break }
            let rssi = UInt8(bitPattern: Self.averageRSSI(linkQuality: node.linkQuality))
            rows.append(
                .structure([
                    .uint64(node.extAddress), .uint32(node.timeout), .uint32(Self.age(of: node, now: now)),
                    .uint16(Self.unsetChildRloc16), .uint16(node.id), .byte(networkDataVersion), .byte(node.linkQuality),
                    .byte(rssi), .byte(rssi), .uint16(0), .uint16(0), .bool(node.rxOnWhenIdle), .bool(node.fullThreadDevice),
                    .bool(true), .bool(false),
                ]))
        }
        return rows
    }

    /// A link frame counter that grows with the time the node has been there.
    static func linkFrameCounter(age: UInt32) -> UInt32 { age &* 4 &+ 12 }

    /// An MLE frame counter that grows with the time the node has been there (advertisements).
    static func mleFrameCounter(age: UInt32) -> UInt32 { age / 30 &+ 3 }
}
