/// A moment since the Unix epoch as a UTC calendar date and time of day (the proleptic Gregorian
/// calendar, Howard Hinnant's days-from-civil inverse): for the timestamps tbrd writes as text.
public struct CivilTime: Hashable, Sendable {
    public let year: Int64, month: Int64, day: Int64
    public let hour: Int64, minute: Int64, second: Int64, millisecond: Int64

    /// The UTC date and time of `secondsSinceEpoch`, to the millisecond (rounded down).
    public init(secondsSinceEpoch: Double) {
        let totalMs = Int64((secondsSinceEpoch * 1000).rounded(.down))
        let days = totalMs >= 0 ? totalMs / 86_400_000 : (totalMs - 86_399_999) / 86_400_000
        let msOfDay = totalMs - days * 86_400_000
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        hour = msOfDay / 3_600_000
        minute = msOfDay / 60_000 % 60
        second = msOfDay / 1000 % 60
        millisecond = msOfDay % 1000
    }

    /// `2023-11-14T22:13:20`: the date and the time to the second.
    public var dateAndTime: String {
        "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2))"
    }

    /// `v` in decimal with leading zeros to `width` digits.
    public static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
