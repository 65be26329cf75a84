import DeviceModel

/// One line of `tbrctl epskc watch`; its JSON form is the contract `{event, sequence, router, reason?,
/// detail?, activatedAt, deactivatedAt?}`, times in ISO 8601 UTC with milliseconds.
struct EpskcWatchEvent: Sendable, Hashable, Encodable {
    /// `epskcModeActivated` or `epskcModeDeactivated`.
    var event: Kind
    /// tbrd's journal sequence number (without tbrd: numbered by this process from 1).
    var sequence: UInt64
    /// The router id.
    var router: String
    /// Why the session ended: `keyUsed`, `expired`, `cancelled` or `unspecified`; deactivations only.
    var reason: String?
    /// More about why: `tooManyAttempts` or `endedEarly`; absent when there is nothing more.
    var detail: String?
    /// When the session started.
    var activatedAt: WallTime
    /// When it ended; deactivations only.
    var deactivatedAt: WallTime?
    /// How long the key was granted for, in seconds, when known (text output only); 0 for a key started
    /// outside tbrd (its validity is unknown).
    var validSeconds: Int?

    /// The two kinds of event.
    enum Kind: String, Sendable, Hashable, Encodable {
        case epskcModeActivated, epskcModeDeactivated
    }

    /// Whether this is the end of a session.
    var isDeactivation: Bool { event == .epskcModeDeactivated }

    private enum CodingKeys: String, CodingKey {
        case event, sequence, router, reason, detail, activatedAt, deactivatedAt
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(event, forKey: .event)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(router, forKey: .router)
        try c.encodeIfPresent(reason, forKey: .reason)
        if let detail, !detail.isEmpty { try c.encode(detail, forKey: .detail) }
        try c.encode(activatedAt.description, forKey: .activatedAt)
        try c.encodeIfPresent(deactivatedAt?.description, forKey: .deactivatedAt)
    }

    /// The text form, one line:
    /// `2024-05-01T12:00:00.000Z  #7  wpan0  activated (valid 120 s)` or
    /// `2024-05-01T12:00:31.250Z  #8  wpan0  deactivated: keyUsed (active 31.3 s)`.
    func render() -> String {
        switch event {
        case .epskcModeActivated:
            let valid = validSeconds.map { $0 > 0 ? " (valid \($0) s)" : " (started outside tbrd, validity unknown)" } ?? ""
            return "\(activatedAt)  #\(sequence)  \(router)  activated\(valid)"
        case .epskcModeDeactivated:
            let end = deactivatedAt ?? activatedAt
            var why = reason ?? "unspecified"
            if let detail, !detail.isEmpty { why += ", \(detail)" }
            let seconds = Double(Int((end.secondsSinceEpoch - activatedAt.secondsSinceEpoch) * 10)) / 10
            return "\(end)  #\(sequence)  \(router)  deactivated: \(why) (active \(seconds) s)"
        }
    }
}

extension WallTime {
    /// The moment `milliseconds` after the Unix epoch (tbrd's `x` times).
    init(milliseconds: Int64) { self.init(secondsSinceEpoch: Double(milliseconds) / 1000) }
}
