/// IPv6 text forms (RFC 4291 §2.2, RFC 5952), written in Swift so this module needs no C.
enum IPv6Text {
    /// The RFC 5952 text of a 16-byte address: lower-case hex, leading zeros dropped, the longest run
    /// (two or more) of zero groups written "::".
    static func format(_ bytes: [UInt8]) -> String {
        var groups = [UInt16](repeating: 0, count: 8)
        for i in 0..<min(8, bytes.count / 2) { groups[i] = UInt16(bytes[2 * i]) << 8 | UInt16(bytes[2 * i + 1]) }
        var bestStart = -1, bestLength = 0, i = 0
        while i < 8 {
            guard groups[i] == 0 else { i += 1; continue }
            var j = i
            while j < 8, groups[j] == 0 { j += 1 }
            if j - i > bestLength { bestStart = i; bestLength = j - i }
            i = j
        }
        if bestLength < 2 { bestStart = -1 }
        var out = ""
        i = 0
        while i < 8 {
            if i == bestStart {
                out += "::"
                i += bestLength
                continue
            }
            if !out.isEmpty, !out.hasSuffix(":") { out += ":" }
            out += String(groups[i], radix: 16)
            i += 1
        }
        return out
    }

    /// The 16 bytes of an IPv6 address in text form (hex groups with at most one "::"; no embedded
    /// IPv4 and no zone), or nil.
    static func parse(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty, text.count <= 45 else { return nil }
        let halves = text.split(separator: "::", maxSplits: 2, omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        func groups(_ part: Substring) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            for g in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(g.count), let v = UInt16(g, radix: 16), !g.hasPrefix("+") else { return nil }
                out.append(v)
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count <= 7 else { return nil }
            all += [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        return all.flatMap { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] }
    }
}
