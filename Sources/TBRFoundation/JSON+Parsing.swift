/// Why text is not JSON: what, and at which byte.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset of the offending byte in the UTF-8 text.
    public var offset: Int
    /// What is wrong, as a sentence fragment.
    public var problem: String
    /// The key an object has twice, when that is what is wrong (``JSON/DuplicateKeys/refused``).
    public var duplicateKey: String?

    /// An error at `offset`.
    public init(offset: Int, problem: String, duplicateKey: String? = nil) {
        self.offset = offset
        self.problem = problem
        self.duplicateKey = duplicateKey
    }

    public var description: String { "not JSON at byte \(offset): \(problem)" }
}

extension JSON {
    /// The deepest nesting accepted (orjson's limit): deeper text is refused, never a deep recursion.
    public static let maximumDepth = 1024

    /// Reads one JSON text (RFC 8259), as orjson reads it: whitespace around it, nothing after it; no
    /// trailing commas, comments, `NaN`, leading zeros or lone surrogates; an integer that does not fit
    /// in 64 bits becomes a double, a number that overflows a double is refused; a repeated key keeps
    /// its last value, or is refused with `duplicateKeys: .refused` (a request whose meaning would
    /// depend on which of two values a reader keeps).
    /// - Throws: ``JSONParseError``; for a repeated key that is refused, one whose ``JSONParseError/duplicateKey`` names it.
    public init(parsing text: String, duplicateKeys: DuplicateKeys = .lastWins) throws(JSONParseError) {
        var parser = JSONParser(Array(text.utf8), refusingDuplicates: duplicateKeys == .refused)
        self = try parser.document()
    }

    /// What a reader does with a key an object has twice.
    public enum DuplicateKeys: Sendable, Hashable {
        /// The last value is kept (as orjson and most readers do).
        case lastWins
        /// The text is refused.
        case refused
    }
}

/// A recursive-descent reader over UTF-8 bytes, depth-bounded.
struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0
    private let refusingDuplicates: Bool

    init(_ bytes: [UInt8], refusingDuplicates: Bool = false) {
        self.bytes = bytes
        self.refusingDuplicates = refusingDuplicates
    }

    mutating func document() throws(JSONParseError) -> JSON {
        skipSpace()
        let value = try self.value()
        skipSpace()
        guard i == bytes.count else { throw fail("text after the value") }
        return value
    }

    private func fail(_ problem: String) -> JSONParseError { JSONParseError(offset: i, problem: problem) }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value() throws(JSONParseError) -> JSON {
        guard i < bytes.count else { throw fail("the text ends where a value should be") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSON) throws(JSONParseError) -> JSON {
        let w = word.withUTF8Buffer { Array($0) }
        guard bytes.count - i >= w.count, Array(bytes[i..<(i + w.count)]) == w else { throw fail("unexpected character") }
        i += w.count
        return value
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSON.maximumDepth { throw fail("nesting deeper than \(JSON.maximumDepth)") }
    }

    private mutating func object() throws(JSONParseError) -> JSON {
        try enter()
        defer { depth -= 1 }
        i += 1
        var members = JSONObject()
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("an object key is not a string") }
            let start = i
            let key = try string()
            if refusingDuplicates, members[key] != nil {
                throw JSONParseError(offset: start, problem: "the key \(Quoted(key)) appears twice in one object", duplicateKey: key)
            }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("a ':' is missing after an object key") }
            i += 1
            skipSpace()
            members[key] = try value()
            skipSpace()
            guard i < bytes.count else { throw fail("an object is not closed") }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(members)
            }
            guard bytes[i] == UInt8(ascii: ",") else { throw fail("a ',' or '}' is missing in an object") }
            i += 1
        }
    }

    private mutating func array() throws(JSONParseError) -> JSON {
        try enter()
        defer { depth -= 1 }
        i += 1
        var elements: [JSON] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value())
            skipSpace()
            guard i < bytes.count else { throw fail("an array is not closed") }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(elements)
            }
            guard bytes[i] == UInt8(ascii: ",") else { throw fail("a ',' or ']' is missing in an array") }
            i += 1
        }
    }

    private mutating func string() throws(JSONParseError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("a string is not closed") }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                i += 1
                guard i < bytes.count else { throw fail("a string is not closed") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard bytes.count - i >= 2, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw fail("no low surrogate in a string")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("no low surrogate in a string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("a lone low surrogate in a string")
                    }
                    out.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
                default: throw fail("an unknown escape in a string")
                }
            case 0..<0x20:
                throw fail("a control character in a string")
            default:
                out.append(b)
                i += 1
            }
        }
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - i >= 4 else { throw fail("a \\u escape is cut short") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = Hex.nibble(bytes[i]) else { throw fail("a \\u escape is not hexadecimal") }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    private mutating func number() throws(JSONParseError) -> JSON {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ i: inout Int, _ bytes: [UInt8]) -> Int {
            let s = i
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            return i - s
        }
        let intStart = i
        let intDigits = digits(&i, bytes)
        guard intDigits > 0 else { throw fail("a number has no digits") }
        if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") {
            i = start
            throw fail("a number with a leading zero")
        }
        var isInteger = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            isInteger = false
            guard digits(&i, bytes) > 0 else { throw fail("a number has no digits after its point") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            isInteger = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&i, bytes) > 0 else { throw fail("a number has no digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if isInteger {
            if let v = Int64(text) { return .int(v) }
            if let v = UInt64(text) { return .uint(v) }
        }
        guard let d = Double(text), d.isFinite else {
            i = start
            throw fail("a number is infinite as a double")
        }
        return .double(d)
    }
}
