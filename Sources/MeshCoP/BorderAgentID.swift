import TBRFoundation

/// A Border Agent ID (TXT key `id`, otbr-agent's `BorderAgentId` property, REST `/node/ba-id`): 16
/// bytes that identify one border agent across restarts.
public struct BorderAgentID: Hashable, Sendable, Codable, CustomStringConvertible, LosslessStringConvertible {
    /// The 16 bytes.
    public let bytes: [UInt8]

    /// Decodes 16 bytes.
    /// - Throws: ``ValueDecodingError/wrongLength(_:expected:)`` unless there are 16.
    public init(bytes: [UInt8]) throws(ValueDecodingError) {
        guard bytes.count == 16 else { throw .wrongLength(bytes.count, expected: [16]) }
        self.bytes = bytes
    }

    /// Parses 32 hex digits (either case, as OTBR's REST API writes them in upper case).
    public init?(_ text: String) {
        guard let b = try? Hex.decode(text), b.count == 16 else { return nil }
        bytes = b
    }

    /// 32 lower-case hex digits.
    public var description: String { Hex.encode(bytes) }

    /// Decodes a JSON string of 32 hex digits.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let v = BorderAgentID(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "a border agent ID is 32 hex digits"))
        }
        self = v
    }

    /// Encodes a JSON string of 32 lower-case hex digits.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
