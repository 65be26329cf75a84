/// tbrd's identifier of a border router, as the store keeps it (the daemon's router id, e.g. `wpan0`).
public struct RouterID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The identifier text: 1…255 UTF-8 bytes.
    public let rawValue: String

    /// The identifier `rawValue`, or nil when it is empty or longer than 255 bytes.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= 255 else { return nil }
        self.rawValue = rawValue
    }

    /// A literal identifier; an invalid literal is a programmer error.
    public init(stringLiteral value: String) {
        guard let id = RouterID(rawValue: value) else { preconditionFailure("invalid router id literal \"\(value)\"") }
        self = id
    }

    /// Decodes a JSON string.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = RouterID(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "invalid router id"))
        }
        self = id
    }

    /// Encodes as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    /// Orders by the identifier text.
    public static func < (a: RouterID, b: RouterID) -> Bool { a.rawValue < b.rawValue }
    /// The identifier text.
    public var description: String { rawValue }
}
