/// A Thread network in a structure's network directory (the shape of Matter 1.4's Thread Network
/// Directory cluster, 0x0453): by Extended PAN ID, with its name, channel and Active Timestamp, the Active
/// dataset when tbrd holds the credentials, and where it was learned.
///
/// The store keeps the values without interpreting them; the daemon decodes the dataset with MeshCoP.
public struct ThreadNetworkRecord: Hashable, Sendable {
    /// Where a network was learned.
    public enum Source: String, Sendable, CaseIterable {
        /// The active dataset of one of the structure's routers.
        case router
        /// `tbrctl network fetch --structure`: another border router's, through its ePSKc.
        case fetched
        /// `tbrctl network add`.
        case added
        /// A `_meshcop._udp` record of another border agent (seen, credentials not held).
        case mdns
    }

    /// The Extended PAN ID, 16 lower-case hex digits.
    public var extendedPANID: String
    public var networkName: String
    public var channel: Int?
    /// The Active Timestamp's seconds.
    public var activeTimestamp: UInt64?
    /// The Active dataset's TLVs (secrets included); nil when tbrd does not hold the credentials.
    public var dataset: [UInt8]?
    public var source: Source
    /// What the source was: a router id, a border agent's address and name, an mDNS instance name.
    public var sourceDetail: String
    /// Seconds since the Unix epoch.
    public var firstSeenAt: Double
    public var lastSeenAt: Double
    /// When an mDNS record last showed it (nil: never).
    public var mdnsSeenAt: Double?

    public init(
        extendedPANID: String, networkName: String, channel: Int? = nil, activeTimestamp: UInt64? = nil, dataset: [UInt8]? = nil,
        source: Source, sourceDetail: String = "", firstSeenAt: Double = 0, lastSeenAt: Double = 0, mdnsSeenAt: Double? = nil
    ) {
        self.extendedPANID = extendedPANID
        self.networkName = networkName
        self.channel = channel
        self.activeTimestamp = activeTimestamp
        self.dataset = dataset
        self.source = source
        self.sourceDetail = sourceDetail
        self.firstSeenAt = firstSeenAt
        self.lastSeenAt = lastSeenAt
        self.mdnsSeenAt = mdnsSeenAt
    }
}
