public import TBRFoundation

/// One entry of the append-only ePSKc journal: a key was activated on a router, or its mode ended.
///
/// The key itself is never part of an event: the journal has no column for it, and the opaque
/// ``restoreRecord`` a caller attaches to an activation must never contain it either.
public struct EpskcJournalEntry: Hashable, Sendable {
    /// Whether the event starts or ends an ePSKc session.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// ePSKc mode was activated.
        case activated
        /// ePSKc mode ended (key used, expired, cancelled, …).
        case deactivated
    }

    /// Its position in the journal: increasing, never reused, even after pruning.
    public var sequence: Int64
    /// The router the session ran on.
    public var router: DeviceID
    /// The caller's identifier of the session, linking an activation to its deactivation, if given.
    public var session: String?
    /// Start or end.
    public var kind: Kind
    /// Why the mode ended (`keyUsed`, `expired`, `cancelled`, `unspecified`); nil for an activation.
    public var reason: String?
    /// More about the reason (`tooManyAttempts`, `endedEarly`), if any.
    public var detail: String?
    /// When the mode was activated (seconds since the Unix epoch).
    public var activatedAt: Double
    /// When it ended (seconds since the Unix epoch); nil for an activation.
    public var deactivatedAt: Double?
    /// How long the router granted the key for, in seconds, when known.
    public var validSeconds: Int?
    /// When the event was written to the journal (seconds since the Unix epoch).
    public var recordedAt: Double
    /// For an activation, what the caller needs to recover the session after a restart (opaque bytes,
    /// e.g. an encoded session record: the agent instance, a telemetry baseline; never the key).
    public var restoreRecord: [UInt8]?

    /// An event with these values (the store creates them; this is for callers' tests).
    public init(
        sequence: Int64, router: DeviceID, session: String? = nil, kind: Kind, reason: String?, detail: String?,
        activatedAt: Double, deactivatedAt: Double?, validSeconds: Int?, recordedAt: Double, restoreRecord: [UInt8]? = nil
    ) {
        self.sequence = sequence
        self.router = router
        self.session = session
        self.kind = kind
        self.reason = reason
        self.detail = detail
        self.activatedAt = activatedAt
        self.deactivatedAt = deactivatedAt
        self.validSeconds = validSeconds
        self.recordedAt = recordedAt
        self.restoreRecord = restoreRecord
    }
}
