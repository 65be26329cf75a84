/// Identifies one device of a home, for example a border router: the one id the trait API, the store,
/// tbrd's D-Bus API and tbrctl share.
///
/// For a border router over otbr-agent the id is the Thread interface name (`wpan0`): it stays the same
/// when the agent restarts or leaves its network (which gives it a new Border Agent ID). A router on
/// another host has the id it was added with. Any string of 1…255 UTF-8 bytes is accepted;
/// ``objectPathElement`` turns it into something usable in a D-Bus object path.
public struct DeviceID: RawRepresentable, Hashable, Sendable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The longest id, in UTF-8 bytes (a column of the state database holds it).
    public static let maximumLength = 255

    /// The id as text, e.g. `wpan0`.
    public let rawValue: String

    /// The id `rawValue`; nil when it is empty or longer than ``maximumLength`` bytes.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= Self.maximumLength else { return nil }
        self.rawValue = rawValue
    }

    /// An id from a literal known to be valid; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        guard let id = DeviceID(rawValue: value) else { preconditionFailure("invalid device id literal \"\(value)\"") }
        self = id
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

    /// The id as text.
    public var description: String { rawValue }

    /// Orders by the id text.
    public static func < (a: DeviceID, b: DeviceID) -> Bool { a.rawValue < b.rawValue }

    /// Decodes a JSON string.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = DeviceID(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a device id is 1 to 255 bytes"))
        }
        self = id
    }

    /// Encodes as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
