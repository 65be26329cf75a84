/// What an HTTP/1.1 request head and response head share (RFC 9112, sections 2–5): the head ends at the
/// first blank line, its first line is the start line, and every other line is `name: value`.
enum HTTPHead {
    /// The offset of the blank line's CRLF CRLF in `bytes` at or after `from`, or nil.
    static func end(in bytes: some RandomAccessCollection<UInt8>, from: Int) -> Int? {
        let data = Array(bytes)
        guard data.count >= 4 else { return nil }
        var i = max(0, from)
        while i <= data.count - 4 {
            if data[i] == 13, data[i + 1] == 10, data[i + 2] == 13, data[i + 3] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// The head at the start of `bytes`: its start line and header fields (names lower-cased, values
    /// trimmed), and its length with the blank line; nil while the blank line has not arrived.
    /// - Parameters:
    ///   - whose: "the server's response head", "the client's request head", for errors.
    /// - Throws: ``WebSocketError/handshakeFailed(_:)`` for a head longer than `limit`, not UTF-8, or
    ///   with a malformed field line.
    static func parse(_ bytes: some Collection<UInt8>, limit: Int, whose: String) throws(WebSocketError)
        -> (startLine: String, headers: [(name: String, value: String)], length: Int)?
    {
        let data = Array(bytes.prefix(limit + 4))
        guard let end = end(in: data, from: 0) else {
            if data.count > limit { throw .handshakeFailed("\(whose) is longer than \(limit) bytes") }
            return nil
        }
        guard end <= limit else { throw .handshakeFailed("\(whose) is longer than \(limit) bytes") }
        guard let text = String(validating: data[0..<end], as: UTF8.self) else {
            throw .handshakeFailed("\(whose) is not text")
        }
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let startLine = lines.removeFirst()
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else { throw .handshakeFailed("a header line of \(whose) is malformed (\(shown(line)))") }
            headers.append((line[..<colon].lowercased(), String(line[line.index(after: colon)...].trimmingSpaces)))
        }
        return (startLine, headers, end + 4)
    }

    /// At most 64 characters of `text`, control characters escaped, for a message.
    static func shown(_ text: String) -> String {
        let clipped = text.unicodeScalars.prefix(64).map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
        return "\"" + clipped.joined() + (text.unicodeScalars.count > 64 ? "…" : "") + "\""
    }
}

/// The bytes of a handshake as they arrive, until the head is complete: looks for the blank line only
/// in what is new (so a peer that sends its head a byte at a time costs linear work), and refuses a
/// head that passes the limit without waiting for more.
struct HTTPHeadBuffer {
    private(set) var bytes: [UInt8] = []
    private var scanned = 0
    let limit: Int
    let whose: String

    init(limit: Int, whose: String) {
        self.limit = limit
        self.whose = whose
    }

    /// Adds `chunk`; true once the head is complete (``bytes`` then holds it and whatever followed).
    /// - Throws: ``WebSocketError/handshakeFailed(_:)`` once more than `limit` bytes hold no blank line.
    mutating func append(_ chunk: [UInt8]) throws(WebSocketError) -> Bool {
        bytes.append(contentsOf: chunk)
        if HTTPHead.end(in: bytes[max(0, scanned - 3)...], from: 0) != nil { return true }
        scanned = bytes.count
        if bytes.count > limit + 3 { throw .handshakeFailed("\(whose) is longer than \(limit) bytes") }
        return false
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}
