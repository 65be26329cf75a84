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
        let totalMs = Int64((secondsSinceEpoch * 1000).rounded(.down))
        let days = totalMs >= 0 ? totalMs / 86_400_000 : (totalMs - 86_399_999) / 86_400_000
        let msOfDay = totalMs - days * 86_400_000
        // Civil date from days since the epoch (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let h = msOfDay / 3_600_000, m = msOfDay / 60_000 % 60, s = msOfDay / 1000 % 60, ms = msOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(ms, 3))Z"
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
