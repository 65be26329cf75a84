/// How much of the ePSKc journal is kept. Pruning never removes the activation of a session that is
/// still open (so it can be recovered after a restart), and never lowers a sequence number.
public struct JournalRetention: Hashable, Sendable {
    /// Events recorded longer ago than this are removed; nil keeps events of any age.
    public var maximumAge: Duration?
    /// At most this many of the newest events are kept; nil keeps any number.
    public var maximumCount: Int?

    /// Keeps 30 days and at most 10 000 events by default.
    public init(maximumAge: Duration? = .seconds(30 * 24 * 3600), maximumCount: Int? = 10_000) {
        self.maximumAge = maximumAge
        self.maximumCount = maximumCount
    }

    /// Keeps everything.
    public static let unlimited = JournalRetention(maximumAge: nil, maximumCount: nil)
}
