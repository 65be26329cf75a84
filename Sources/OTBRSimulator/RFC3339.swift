/// The timestamps and identifiers of the REST API's collections (ot-br-posix `src/rest/timestamp.cpp`,
/// `uuid.cpp`).
enum RFC3339 {
    /// `2026-12-01T20:44:07+00:00`: seconds since the epoch as RFC 3339 with a numeric offset, as
    /// `toRfc3339` writes it (the agent uses the host's local offset; the simulator UTC).
    static func format(_ secondsSinceEpoch: Double) -> String {
        let total = Int64(secondsSinceEpoch.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
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
        let (h, m, s) = (secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2))+00:00"
    }

    /// A random (version 4) UUID in lower-case hex, `8-4-4-4-12`, as `Uuid::ToString` writes one.
    static func randomUUID() -> String {
        var rng = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }

    /// Whether `text` is a UUID (`Uuid::Parse`): 8-4-4-4-12 hex digits.
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
