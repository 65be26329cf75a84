import TBRFoundation

extension MeshCoPTXTRecord {
    /// Decodes a TXT record from DNS wire format (RFC 1035 §3.3.14, RFC 6763 §6): length-prefixed
    /// strings `key=value`. A string without "=" is a key with an empty value; empty strings are
    /// skipped; a string cut short by the end of the data, or a key that is not UTF-8, becomes a
    /// ``TXTProblem``. Never traps.
    public init(wireFormat bytes: [UInt8]) {
        var entries: [TXTEntry] = []
        var problems: [TXTProblem] = []
        var reader = ByteReader(bytes)
        while !reader.isAtEnd {
            let start = reader.offset
            do throws(ByteReader.EndOfInput) {
                let length = Int(try reader.readUInt8())
                let string = try reader.readBytes(length)
                guard !string.isEmpty else { continue }
                let equals = string.firstIndex(of: UInt8(ascii: "=")) ?? string.endIndex
                guard let key = String(validating: string[..<equals], as: UTF8.self) else {
                    problems.append(TXTProblem(key: nil, reason: .invalidKey))
                    continue
                }
                let value = equals < string.endIndex ? Array(string[(equals + 1)...]) : []
                entries.append(TXTEntry(key: key, value: value))
            } catch {
                problems.append(TXTProblem(
                    key: nil, reason: .truncatedString(offset: start, length: error.needed, available: error.available)))
                break
            }
        }
        self.init(entries: entries, problems: problems)
    }

    /// The entries in DNS wire format: each `key=value` prefixed by its length, or the bare `key` when
    /// the value is empty and the key is not (so every entry decoded from wire format fits again). An entry longer than 255
    /// bytes cannot be represented and is left out.
    public var wireFormat: [UInt8] {
        var w = ByteWriter()
        for entry in entries {
            let bare = entry.value.isEmpty && !entry.key.isEmpty
            let string = Array(entry.key.utf8) + (bare ? [] : [UInt8(ascii: "=")] + entry.value)
            guard string.count <= 255 else { continue }
            w.write(UInt8(string.count))
            w.write(contentsOf: string)
        }
        return w.bytes
    }
}
