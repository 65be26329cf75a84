/// Identifies one device of a home, for example a border router.
///
/// For a border router over otbr-agent the id is the Thread interface name (`wpan0`): it stays the same
/// when the agent restarts or leaves its network (which gives it a new Border Agent ID). Any non-empty
/// string is accepted; ``objectPathElement`` turns it into something usable in a D-Bus object path.
public struct DeviceID: RawRepresentable, Hashable, Sendable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The id as text, e.g. `wpan0`.
    public let rawValue: String

    /// The id `rawValue`; nil when it is empty.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty else { return nil }
        self.rawValue = rawValue
    }

    /// An id from a literal known to be valid; traps on an empty literal (a programming error).
    public init(stringLiteral value: String) {
        precondition(!value.isEmpty, "a device id cannot be empty")
        rawValue = value
    }

    /// The id as one element of a D-Bus object path: ASCII letters and digits are kept, every other
    /// byte becomes `_` and two lowercase hex digits (the escaping of `sd_bus_path_encode`), so that
    /// distinct ids give distinct elements. `wpan0` stays `wpan0`; `wpan_0` becomes `wpan_5f0`.
    public var objectPathElement: String {
        var out = ""
        for byte in rawValue.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789abcdef")
                out += "_" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }

    public var description: String { rawValue }

    public static func < (a: DeviceID, b: DeviceID) -> Bool { a.rawValue < b.rawValue }

    /// Decodes a JSON string.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = DeviceID(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "empty device id"))
        }
        self = id
    }

    /// Encodes as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
