import TBRFoundation

/// A CoAP message (RFC 7252, section 3), as MeshCoP's management commands travel over a border agent's
/// DTLS session: `MGMT_ACTIVE_GET.req` is a confirmable POST to `c/ag`, answered `2.04 Changed` with the
/// dataset's TLVs as payload. Decoding is strict and bounded: anything RFC 7252 calls a message format
/// error is a ``CoAPMessage/DecodingError``.
public struct CoAPMessage: Hashable, Sendable {
    /// The message type (RFC 7252, 3).
    public enum Kind: UInt8, Sendable {
        case confirmable = 0, nonConfirmable = 1, acknowledgement = 2, reset = 3
    }

    /// A code `class.detail`: 0.00 empty, 0.01–0.31 requests, 2.xx–5.xx responses.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public init(_ codeClass: UInt8, _ detail: UInt8) { rawValue = codeClass << 5 | (detail & 0x1f) }
        public var codeClass: UInt8 { rawValue >> 5 }
        public var detail: UInt8 { rawValue & 0x1f }

        public static let empty = Code(0, 0)
        public static let post = Code(0, 2)
        public static let changed = Code(2, 4)

        public var isRequest: Bool { codeClass == 0 && detail != 0 }
        public var isSuccess: Bool { codeClass == 2 }

        /// `2.04`, with RFC 7252's name where it has one: `4.01 Unauthorized`.
        public var description: String {
            let number = "\(codeClass).\(detail < 10 ? "0" : "")\(detail)"
            let names: [UInt8: String] = [
                0x41: "Created", 0x42: "Deleted", 0x43: "Valid", 0x44: "Changed", 0x45: "Content",
                0x80: "Bad Request", 0x81: "Unauthorized", 0x82: "Bad Option", 0x83: "Forbidden", 0x84: "Not Found",
                0x85: "Method Not Allowed", 0x86: "Not Acceptable", 0x8c: "Precondition Failed",
                0x8d: "Request Entity Too Large", 0x8f: "Unsupported Content-Format", 0xa0: "Internal Server Error",
                0xa1: "Not Implemented", 0xa2: "Bad Gateway", 0xa3: "Service Unavailable", 0xa4: "Gateway Timeout",
                0xa5: "Proxying Not Supported",
            ]
            return names[rawValue].map { "\(number) \($0)" } ?? number
        }
    }

    /// One option: its number and value.
    public struct Option: Hashable, Sendable {
        public let number: UInt16
        public let value: [UInt8]
        public init(number: UInt16, value: [UInt8]) {
            self.number = number
            self.value = value
        }
        /// Uri-Path (11).
        public static let uriPathNumber: UInt16 = 11
    }

    /// Why bytes are not a CoAP message.
    public enum DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        case tooShort(Int)
        case version(UInt8)
        case tokenLength(UInt8)
        case truncated(offset: Int)
        case reservedOptionNibble(offset: Int)
        case optionNumberTooLarge
        case emptyPayloadAfterMarker
        case emptyMessageWithContent

        public var description: String {
            switch self {
            case .tooShort(let n): "a CoAP message has a 4-byte header; got \(n) byte(s)"
            case .version(let v): "CoAP version \(v), expected 1"
            case .tokenLength(let n): "token length \(n) (at most 8)"
            case .truncated(let offset): "the message ends inside an option or token (offset \(offset))"
            case .reservedOptionNibble(let offset): "an option uses the reserved value 15 (offset \(offset))"
            case .optionNumberTooLarge: "an option number beyond 65535"
            case .emptyPayloadAfterMarker: "a payload marker with no payload after it"
            case .emptyMessageWithContent: "an empty message (code 0.00) with a token, options or payload"
            }
        }
    }

    public var kind: Kind
    public var code: Code
    public var messageID: UInt16
    /// 0 to 8 bytes.
    public var token: [UInt8]
    /// In ascending option-number order when encoded.
    public var options: [Option]
    public var payload: [UInt8]

    public init(kind: Kind, code: Code, messageID: UInt16, token: [UInt8] = [], options: [Option] = [], payload: [UInt8] = []) {
        self.kind = kind
        self.code = code
        self.messageID = messageID
        self.token = token
        self.options = options
        self.payload = payload
    }

    /// A confirmable POST to `path` ("c/ag": one Uri-Path option per segment).
    public static func post(path: String, messageID: UInt16, token: [UInt8], payload: [UInt8] = []) -> CoAPMessage {
        let segments = path.split(separator: "/").map { Option(number: Option.uriPathNumber, value: Array($0.utf8)) }
        return CoAPMessage(kind: .confirmable, code: .post, messageID: messageID, token: token, options: segments, payload: payload)
    }

    /// The Uri-Path options joined by `/`.
    public var uriPath: String {
        options.filter { $0.number == Option.uriPathNumber }.map { String(decoding: $0.value, as: UTF8.self) }
            .joined(separator: "/")
    }

    /// The wire form. Options are written in ascending number order (stable for equal numbers).
    public func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 16 + payload.count)
        w.write(0x40 | kind.rawValue << 4 | UInt8(min(token.count, 8)))
        w.write(code.rawValue)
        w.writeBigEndian(messageID)
        w.write(contentsOf: token.prefix(8))
        var previous: UInt16 = 0
        for option in options.enumerated().sorted(by: { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }) {
            let delta = Int(option.element.number - previous)
            previous = option.element.number
            let length = option.element.value.count
            w.write(Self.nibble(delta) << 4 | Self.nibble(length))
            Self.writeExtension(delta, to: &w)
            Self.writeExtension(length, to: &w)
            w.write(contentsOf: option.element.value)
        }
        if !payload.isEmpty {
            w.write(0xff)
            w.write(contentsOf: payload)
        }
        return w.bytes
    }

    /// Decodes one datagram.
    public init(decoding bytes: [UInt8]) throws(DecodingError) {
        guard bytes.count >= 4 else { throw .tooShort(bytes.count) }
        let version = bytes[0] >> 6
        guard version == 1 else { throw .version(version) }
        let tokenLength = bytes[0] & 0x0f
        guard tokenLength <= 8 else { throw .tokenLength(tokenLength) }
        kind = Kind(rawValue: (bytes[0] >> 4) & 0x03)!
        code = Code(rawValue: bytes[1])
        messageID = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        var offset = 4
        guard bytes.count >= offset + Int(tokenLength) else { throw .truncated(offset: offset) }
        token = Array(bytes[offset..<offset + Int(tokenLength)])
        offset += Int(tokenLength)
        options = []
        payload = []
        var number = 0
        while offset < bytes.count {
            let first = bytes[offset]
            if first == 0xff {
                guard offset + 1 < bytes.count else { throw .emptyPayloadAfterMarker }
                payload = Array(bytes[(offset + 1)...])
                break
            }
            let start = offset
            offset += 1
            let delta = try Self.readExtension(first >> 4, bytes, &offset, start)
            let length = try Self.readExtension(first & 0x0f, bytes, &offset, start)
            number += delta
            guard number <= Int(UInt16.max) else { throw .optionNumberTooLarge }
            guard bytes.count - offset >= length else { throw .truncated(offset: start) }
            options.append(Option(number: UInt16(number), value: Array(bytes[offset..<offset + length])))
            offset += length
        }
        if code == .empty, !(token.isEmpty && options.isEmpty && payload.isEmpty) { throw .emptyMessageWithContent }
    }

    private static func nibble(_ value: Int) -> UInt8 { value < 13 ? UInt8(value) : value < 269 ? 13 : 14 }

    private static func writeExtension(_ value: Int, to w: inout ByteWriter) {
        if value >= 269 {
            w.writeBigEndian(UInt16(value - 269))
        } else if value >= 13 {
            w.write(UInt8(value - 13))
        }
    }

    private static func readExtension(_ nibble: UInt8, _ bytes: [UInt8], _ offset: inout Int, _ start: Int)
        throws(DecodingError) -> Int
    {
        switch nibble {
        case 13:
            guard offset < bytes.count else { throw .truncated(offset: start) }
            defer { offset += 1 }
            return Int(bytes[offset]) + 13
        case 14:
            guard offset + 1 < bytes.count else { throw .truncated(offset: start) }
            defer { offset += 2 }
            return (Int(bytes[offset]) << 8 | Int(bytes[offset + 1])) + 269
        case 15:
            throw .reservedOptionNibble(offset: start)
        default:
            return Int(nibble)
        }
    }
}
