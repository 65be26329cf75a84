public import DBus
public import MeshCoP

/// One beacon from `Scan`, `a(tstayqqynyybb)`.
///
/// otbr-agent's RCP handler fills only ``extendedAddress``, ``panID``, ``channel``, ``rssi`` and ``lqi``;
/// the other fields are zero or empty (Thread 1.2+ beacons carry no payload).
public struct ScanResult: Hashable, Sendable {
    /// The beaconing router's extended address.
    public var extendedAddress: ExtendedAddress
    /// The network name (empty from the RCP agent).
    public var networkName: String
    /// The extended PAN ID (zero from the RCP agent).
    public var extendedPANID: ExtendedPANID
    /// The steering data (empty from the RCP agent).
    public var steeringData: [UInt8]
    /// The PAN ID.
    public var panID: PANID
    /// The joiner UDP port (zero from the RCP agent).
    public var joinerUDPPort: UInt16
    /// The channel.
    public var channel: UInt8
    /// dBm.
    public var rssi: Int16
    /// The link quality indicator.
    public var lqi: UInt8
    /// The Thread version in the beacon (zero from the RCP agent).
    public var version: UInt8
    /// The native-commissioner flag (false from the RCP agent).
    public var isNative: Bool
    /// The joining-permitted flag (false from the RCP agent).
    public var isJoinable: Bool

    /// A scan result with every field given.
    public init(
        extendedAddress: ExtendedAddress, networkName: String = "", extendedPANID: ExtendedPANID = ExtendedPANID(0),
        steeringData: [UInt8] = [], panID: PANID, joinerUDPPort: UInt16 = 0, channel: UInt8, rssi: Int16, lqi: UInt8,
        version: UInt8 = 0, isNative: Bool = false, isJoinable: Bool = false
    ) {
        self.extendedAddress = extendedAddress
        self.networkName = networkName
        self.extendedPANID = extendedPANID
        self.steeringData = steeringData
        self.panID = panID
        self.joinerUDPPort = joinerUDPPort
        self.channel = channel
        self.rssi = rssi
        self.lqi = lqi
        self.version = version
        self.isNative = isNative
        self.isJoinable = isJoinable
    }

    /// The D-Bus type of one result.
    public static let dbusType: SignatureType = .structure([
        .uint64, .string, .uint64, .array(.byte), .uint16, .uint16, .byte, .int16, .byte, .byte, .boolean, .boolean,
    ])

    /// Decodes one `(tstayqqynyybb)` struct.
    /// - Throws: ``DBusValueError`` when the value has another shape.
    public init(dbusValue value: DBusValue) throws(DBusValueError) {
        var r = try StructReader(value, fieldCount: 12)
        extendedAddress = ExtendedAddress(rawValue: try r.next(UInt64.self))
        networkName = try r.next(String.self)
        extendedPANID = ExtendedPANID(try r.next(UInt64.self))
        steeringData = try r.next([UInt8].self)
        panID = PANID(try r.next(UInt16.self))
        joinerUDPPort = try r.next(UInt16.self)
        channel = try r.next(UInt8.self)
        rssi = try r.next(Int16.self)
        lqi = try r.next(UInt8.self)
        version = try r.next(UInt8.self)
        isNative = try r.next(Bool.self)
        isJoinable = try r.next(Bool.self)
    }

    /// The `(tstayqqynyybb)` struct.
    public var dbusValue: DBusValue {
        .structure([
            .uint64(extendedAddress.rawValue), .string(networkName), .uint64(extendedPANID.rawValue),
            .bytes(steeringData), .uint16(panID.rawValue), .uint16(joinerUDPPort), .byte(channel), .int16(rssi),
            .byte(lqi), .byte(version), .bool(isNative), .bool(isJoinable),
        ])
    }
}
