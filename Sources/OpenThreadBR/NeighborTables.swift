public import DBus
public import MeshCoP

/// One entry of otbr-agent's `NeighborTable`, `a(tuquuyyyqqqbbbb)`: a router or child this border router
/// hears directly (one radio hop). Children are in this table too, with ``isChild`` set; unlike
/// `ChildTable`'s, their ``rloc16`` is right.
public struct NeighborEntry: Hashable, Sendable, DBusRepresentable {
    /// The neighbour's IEEE 802.15.4 extended address.
    public var extAddress: ExtendedAddress
    /// Seconds since it was last heard.
    public var age: UInt32
    /// Its RLOC16.
    public var rloc16: UInt16
    /// Its link-layer frame counter.
    public var linkFrameCounter: UInt32
    /// Its MLE frame counter.
    public var mleFrameCounter: UInt32
    /// Link quality in, 0 (no link) to 3 (best).
    public var linkQualityIn: UInt8
    /// Average RSSI in dBm.
    public var averageRSSI: Int8
    /// Last RSSI in dBm.
    public var lastRSSI: Int8
    /// Frame error rate, 0xFFFF = 100 % (0 without error tracking).
    public var frameErrorRate: UInt16
    /// IPv6 message error rate, 0xFFFF = 100 %.
    public var messageErrorRate: UInt16
    /// Its Thread version (4 = 1.3, 5 = 1.4).
    public var version: UInt16
    /// Whether its receiver stays on when idle.
    public var rxOnWhenIdle: Bool
    /// Whether it is a Full Thread Device.
    public var fullThreadDevice: Bool
    /// Whether it takes the full network data.
    public var fullNetworkData: Bool
    /// Whether it is this router's child (else a neighbouring router).
    public var isChild: Bool

    /// An entry as given.
    public init(
        extAddress: ExtendedAddress, age: UInt32, rloc16: UInt16, linkQualityIn: UInt8, averageRSSI: Int8 = 0,
        lastRSSI: Int8 = 0, version: UInt16 = 0, rxOnWhenIdle: Bool, fullThreadDevice: Bool, fullNetworkData: Bool = true,
        isChild: Bool
    ) {
        self.extAddress = extAddress
        self.age = age
        self.rloc16 = rloc16
        self.linkFrameCounter = 0
        self.mleFrameCounter = 0
        self.linkQualityIn = linkQualityIn
        self.averageRSSI = averageRSSI
        self.lastRSSI = lastRSSI
        self.frameErrorRate = 0
        self.messageErrorRate = 0
        self.version = version
        self.rxOnWhenIdle = rxOnWhenIdle
        self.fullThreadDevice = fullThreadDevice
        self.fullNetworkData = fullNetworkData
        self.isChild = isChild
    }

    public static var dbusType: SignatureType {
        .structure([
            .uint64, .uint32, .uint16, .uint32, .uint32, .byte, .byte, .byte, .uint16, .uint16, .uint16, .boolean, .boolean,
            .boolean, .boolean,
        ])
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: 15)
        extAddress = ExtendedAddress(rawValue: try f.next())
        age = try f.next()
        rloc16 = try f.next()
        linkFrameCounter = try f.next()
        mleFrameCounter = try f.next()
        linkQualityIn = try f.next()
        averageRSSI = Int8(bitPattern: try f.next())
        lastRSSI = Int8(bitPattern: try f.next())
        frameErrorRate = try f.next()
        messageErrorRate = try f.next()
        version = try f.next()
        rxOnWhenIdle = try f.next()
        fullThreadDevice = try f.next()
        fullNetworkData = try f.next()
        isChild = try f.next()
    }

    public var dbusValue: DBusValue {
        .structure([
            .uint64(extAddress.rawValue), .uint32(age), .uint16(rloc16), .uint32(linkFrameCounter), .uint32(mleFrameCounter),
            .byte(linkQualityIn), .byte(UInt8(bitPattern: averageRSSI)), .byte(UInt8(bitPattern: lastRSSI)),
            .uint16(frameErrorRate), .uint16(messageErrorRate), .uint16(version), .bool(rxOnWhenIdle),
            .bool(fullThreadDevice), .bool(fullNetworkData), .bool(isChild),
        ])
    }
}

/// One entry of otbr-agent's `ChildTable`, `a(tuuqqyyyyqqbbbb)`: a child attached to this border router.
///
/// The agent's handler never sets ``rloc16`` (it holds whatever the memory held) and stops the list at the
/// first empty child slot, so children in later slots are missing (`../shared/otbr/README.md`, "With real
/// neighbours"). Use the entry for what only it has (``timeout``, ``childID``) and take the children
/// themselves, and their RLOC16s, from ``NeighborEntry``'s with ``NeighborEntry/isChild``.
public struct ChildEntry: Hashable, Sendable, DBusRepresentable {
    /// The child's extended address.
    public var extAddress: ExtendedAddress
    /// Its child timeout in seconds.
    public var timeout: UInt32
    /// Seconds since it was last heard.
    public var age: UInt32
    /// Not set by the agent: never use it.
    public var unreliableRloc16: UInt16
    /// Its child id (the low 9 bits of its RLOC16).
    public var childID: UInt16
    /// The network data version it has.
    public var networkDataVersion: UInt8
    /// Link quality in, 0–3.
    public var linkQualityIn: UInt8
    /// Average RSSI in dBm.
    public var averageRSSI: Int8
    /// Last RSSI in dBm.
    public var lastRSSI: Int8
    /// Frame error rate, 0xFFFF = 100 %.
    public var frameErrorRate: UInt16
    /// IPv6 message error rate, 0xFFFF = 100 %.
    public var messageErrorRate: UInt16
    /// Whether its receiver stays on when idle.
    public var rxOnWhenIdle: Bool
    /// Whether it is a Full Thread Device.
    public var fullThreadDevice: Bool
    /// Whether it takes the full network data.
    public var fullNetworkData: Bool
    /// Whether it is being restored after a reset of the parent.
    public var isStateRestoring: Bool

    public static var dbusType: SignatureType {
        .structure([
            .uint64, .uint32, .uint32, .uint16, .uint16, .byte, .byte, .byte, .byte, .uint16, .uint16, .boolean, .boolean,
            .boolean, .boolean,
        ])
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: 15)
        extAddress = ExtendedAddress(rawValue: try f.next())
        timeout = try f.next()
        age = try f.next()
        unreliableRloc16 = try f.next()
        childID = try f.next()
        networkDataVersion = try f.next()
        linkQualityIn = try f.next()
        averageRSSI = Int8(bitPattern: try f.next())
        lastRSSI = Int8(bitPattern: try f.next())
        frameErrorRate = try f.next()
        messageErrorRate = try f.next()
        rxOnWhenIdle = try f.next()
        fullThreadDevice = try f.next()
        fullNetworkData = try f.next()
        isStateRestoring = try f.next()
    }

    public var dbusValue: DBusValue {
        .structure([
            .uint64(extAddress.rawValue), .uint32(timeout), .uint32(age), .uint16(unreliableRloc16), .uint16(childID),
            .byte(networkDataVersion), .byte(linkQualityIn), .byte(UInt8(bitPattern: averageRSSI)),
            .byte(UInt8(bitPattern: lastRSSI)), .uint16(frameErrorRate), .uint16(messageErrorRate), .bool(rxOnWhenIdle),
            .bool(fullThreadDevice), .bool(fullNetworkData), .bool(isStateRestoring),
        ])
    }
}

extension AgentProperty where Value == [NeighborEntry] {
    /// `NeighborTable`: the routers and children one hop away.
    public static var neighborTable: Self { Self("NeighborTable") }
}

extension AgentProperty where Value == [ChildEntry] {
    /// `ChildTable`: this router's children, as far as the first empty slot (see ``ChildEntry``).
    public static var childTable: Self { Self("ChildTable") }
}
