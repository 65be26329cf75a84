public import DeviceModel

/// One line of `tbrctl epskc watch`; its JSON form is the contract `{event, sequence, router, reason?,
/// detail?, activatedAt, deactivatedAt?}`, times in ISO 8601 UTC with milliseconds.
public struct EpskcWatchEvent: Sendable, Hashable, Encodable {
    /// `epskcModeActivated` or `epskcModeDeactivated`.
    public var event: Kind
    /// tbrd's journal sequence number (without tbrd: numbered by this process from 1).
    public var sequence: UInt64
    /// The router id.
    public var router: String
    /// Why the session ended: `keyUsed`, `expired`, `cancelled` or `unspecified`; deactivations only.
    public var reason: String?
    /// More about why: `tooManyAttempts` or `endedEarly`; absent when there is nothing more.
    public var detail: String?
    /// When the session started.
    public var activatedAt: WallTime
    /// When it ended; deactivations only.
    public var deactivatedAt: WallTime?
    /// How long the key was granted for, in seconds, when known (text output only); 0 for a key started
    /// outside tbrd (its validity is unknown).
    public var validSeconds: Int?

    /// The two kinds of event.
    public enum Kind: String, Sendable, Hashable, Encodable {
        case epskcModeActivated, epskcModeDeactivated
    }

    /// Whether this is the end of a session.
    public var isDeactivation: Bool { event == .epskcModeDeactivated }

    private enum CodingKeys: String, CodingKey {
        case event, sequence, router, reason, detail, activatedAt, deactivatedAt
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(event, forKey: .event)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(router, forKey: .router)
        try c.encodeIfPresent(reason, forKey: .reason)
        if let detail, !detail.isEmpty { try c.encode(detail, forKey: .detail) }
        try c.encode(activatedAt.description, forKey: .activatedAt)
        try c.encodeIfPresent(deactivatedAt?.description, forKey: .deactivatedAt)
    }

    /// An event as given.
    public init(event: Kind, sequence: UInt64, router: String, reason: String? = nil, detail: String? = nil, activatedAt: WallTime, deactivatedAt: WallTime? = nil, validSeconds: Int? = nil) {
        self.event = event
        self.sequence = sequence
        self.router = router
        self.reason = reason
        self.detail = detail
        self.activatedAt = activatedAt
        self.deactivatedAt = deactivatedAt
        self.validSeconds = validSeconds
    }
}
