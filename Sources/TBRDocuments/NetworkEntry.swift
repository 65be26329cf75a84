public import DeviceModel
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

    /// An entry as given.
    public init(
        structure: String, extPanId: String, networkName: String, channel: Int?, activeTimestamp: UInt64?, source: String,
        sourceDetail: String, lastSeen: WallTime, routers: [String], credentials: Bool, preferred: Bool, stale: Bool
    ) {
        self.structure = structure
        self.extPanId = extPanId
        self.networkName = networkName
        self.channel = channel
        self.activeTimestamp = activeTimestamp
        self.source = source
        self.sourceDetail = sourceDetail
        self.lastSeen = lastSeen
        self.routers = routers
        self.credentials = credentials
        self.preferred = preferred
        self.stale = stale
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
