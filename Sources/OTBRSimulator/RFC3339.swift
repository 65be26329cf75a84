import TBRFoundation

/// The timestamps and identifiers of the REST API's collections (ot-br-posix `src/rest/timestamp.cpp`,
/// `uuid.cpp`).
enum RFC3339 {
    /// `2026-12-01T20:44:07+00:00`: seconds since the epoch as RFC 3339 with a numeric offset, as
    /// `toRfc3339` writes it (the agent uses the host's local offset; the simulator UTC).
    static func format(_ secondsSinceEpoch: Double) -> String {
        CivilTime(secondsSinceEpoch: secondsSinceEpoch.rounded(.down)).dateAndTime + "+00:00"
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
