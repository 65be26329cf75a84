import TBRFoundation

/// A moment on the wall clock: seconds since the Unix epoch, as events carry it and journals store it.
///
/// Durations between two moments of one session are measured on a monotonic clock; wall time is what
/// people and other programs see.
public struct WallTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z, with a fraction.
    public var secondsSinceEpoch: Double

    /// The moment `secondsSinceEpoch` seconds after the epoch.
    public init(secondsSinceEpoch: Double) { self.secondsSinceEpoch = secondsSinceEpoch }

    /// This moment moved by `duration`.
    public func advanced(by duration: Duration) -> WallTime {
        WallTime(secondsSinceEpoch: secondsSinceEpoch + duration.seconds)
    }

    /// The time from `other` to this moment (negative when `other` is later).
    public func duration(since other: WallTime) -> Duration {
        .nanoseconds(Int64(((secondsSinceEpoch - other.secondsSinceEpoch) * 1e9).rounded()))
    }

    public static func < (a: WallTime, b: WallTime) -> Bool { a.secondsSinceEpoch < b.secondsSinceEpoch }

    /// ISO 8601 in UTC with milliseconds, e.g. `2023-11-14T22:13:20.000Z`.
    public var description: String {
        let t = CivilTime(secondsSinceEpoch: secondsSinceEpoch)
        return t.dateAndTime + "." + CivilTime.pad(t.millisecond, 3) + "Z"
    }

    /// Decodes a JSON number of seconds since the epoch.
    public init(from decoder: any Decoder) throws {
        secondsSinceEpoch = try decoder.singleValueContainer().decode(Double.self)
    }

    /// Encodes as a JSON number of seconds since the epoch.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(secondsSinceEpoch)
    }
}

extension Duration {
    /// The duration in seconds, with a fraction.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
