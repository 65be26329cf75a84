public import DeviceModel
public import TBRDBusAPI
import TBRFoundation

/// One network of a structure's directory, as `tbrctl --json network list` prints it.
public struct NetworkEntry: Encodable, Sendable {
    public var structure: String
    public var extPanId: String
    public var networkName: String
    public var channel: Int?
    public var activeTimestamp: UInt64?
    public var source: String
    public var sourceDetail: String
    public var lastSeen: WallTime
    public var routers: [String]
    public var credentials: Bool
    public var preferred: Bool
    public var stale: Bool

    public init(structure: String, _ row: NetworkRow) {
        self.structure = structure
        extPanId = row.extPanId
        networkName = row.networkName
        channel = row.channel == 0 ? nil : Int(row.channel)
        activeTimestamp = row.activeTimestamp == 0 ? nil : row.activeTimestamp
        source = row.source
        sourceDetail = row.sourceDetail
        lastSeen = WallTime(secondsSinceEpoch: row.lastSeenAt)
        routers = row.routers
        credentials = row.credentials
        preferred = row.preferred
        stale = row.stale
    }

    private enum CodingKeys: String, CodingKey {
        case structure, extPanId, networkName, channel, activeTimestamp, source, sourceDetail, lastSeen, routers, credentials, preferred, stale
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(structure, forKey: .structure)
        try c.encode(extPanId, forKey: .extPanId)
        try c.encode(networkName, forKey: .networkName)
        try c.encode(channel, forKey: .channel)
        try c.encode(activeTimestamp, forKey: .activeTimestamp)
        try c.encode(source, forKey: .source)
        try c.encode(sourceDetail, forKey: .sourceDetail)
        try c.encode(lastSeen, forKey: .lastSeen)
        try c.encode(routers, forKey: .routers)
        try c.encode(credentials, forKey: .credentials)
        try c.encode(preferred, forKey: .preferred)
        try c.encode(stale, forKey: .stale)
    }
}
