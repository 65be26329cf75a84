public import DBus

/// One network of `Structure1.Networks`: `(s ext_pan_id, s network_name, q channel, t active_timestamp,
/// s source, s source_detail, d last_seen_at, as routers, b credentials, b preferred, b stale)`. `channel`
/// 0 and `active_timestamp` 0: not known. `source` is `router`, `fetched`, `added` or `mdns`;
/// `last_seen_at` is seconds since the Unix epoch; `routers` are the ids of the structure's routers on it.
public struct NetworkRow: ContractRow, Sendable {
    public var extPanId: String
    public var networkName: String
    public var channel: UInt16
    public var activeTimestamp: UInt64
    public var source: String
    public var sourceDetail: String
    public var lastSeenAt: Double
    public var routers: [String]
    public var credentials: Bool
    public var preferred: Bool
    public var stale: Bool

    public static let fields = [
        Argument("ext_pan_id", .string), Argument("network_name", .string), Argument("channel", .uint16),
        Argument("active_timestamp", .uint64), Argument("source", .string), Argument("source_detail", .string),
        Argument("last_seen_at", .double), Argument("routers", .array(.string)), Argument("credentials", .boolean),
        Argument("preferred", .boolean), Argument("stale", .boolean),
    ]

    public init(
        extPanId: String, networkName: String, channel: UInt16, activeTimestamp: UInt64, source: String, sourceDetail: String,
        lastSeenAt: Double, routers: [String], credentials: Bool, preferred: Bool, stale: Bool
    ) {
        self.extPanId = extPanId
        self.networkName = networkName
        self.channel = channel
        self.activeTimestamp = activeTimestamp
        self.source = source
        self.sourceDetail = sourceDetail
        self.lastSeenAt = lastSeenAt
        self.routers = routers
        self.credentials = credentials
        self.preferred = preferred
        self.stale = stale
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(
            extPanId: try f.next(), networkName: try f.next(), channel: try f.next(), activeTimestamp: try f.next(),
            source: try f.next(), sourceDetail: try f.next(), lastSeenAt: try f.next(), routers: try f.next(),
            credentials: try f.next(), preferred: try f.next(), stale: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([
            .string(extPanId), .string(networkName), .uint16(channel), .uint64(activeTimestamp), .string(source),
            .string(sourceDetail), .double(lastSeenAt), routers.dbusValue, .bool(credentials), .bool(preferred), .bool(stale),
        ])
    }
}
