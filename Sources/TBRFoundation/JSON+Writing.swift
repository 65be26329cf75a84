extension JSON {
    /// Compact JSON text (no spaces), members in order. Writing cannot fail: a double that is not finite
    /// (which JSON cannot hold) is written as `null`.
    public var serialized: String {
        var out = ""
        write(to: &out, indent: nil)
        return out
    }

    /// JSON text indented by two spaces, as orjson's `OPT_INDENT_2` writes it and python-matter-server
    /// sends every message: one member or element per line, `": "` after keys, empty containers as
    /// `{}` and `[]`, non-ASCII characters as they are, control characters escaped.
    public var indented: String {
        var out = ""
        write(to: &out, indent: 0)
        return out
    }

    private func write(to out: inout String, indent: Int?) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .uint(let u): out += String(u)
        case .double(let d): out += Self.number(d)
        case .string(let s): Self.quote(s, into: &out)
        case .array(let a):
            guard !a.isEmpty else {
                out += "[]"
                return
            }
            out += "["
            for (n, v) in a.enumerated() {
                if n > 0 { out += "," }
                Self.newline(indent.map { $0 + 1 }, into: &out)
                v.write(to: &out, indent: indent.map { $0 + 1 })
            }
            Self.newline(indent, into: &out)
            out += "]"
        case .object(let o):
            guard !o.isEmpty else {
                out += "{}"
                return
            }
            out += "{"
            for (n, member) in o.enumerated() {
                if n > 0 { out += "," }
                Self.newline(indent.map { $0 + 1 }, into: &out)
                Self.quote(member.key, into: &out)
                out += indent == nil ? ":" : ": "
                member.value.write(to: &out, indent: indent.map { $0 + 1 })
            }
            Self.newline(indent, into: &out)
            out += "}"
        }
    }

    private static func newline(_ level: Int?, into out: inout String) {
        guard let level else { return }
        out += "\n" + String(repeating: "  ", count: level)
    }

    /// A double as Python writes one: the shortest text that reads back the same, always with a point
    /// or an exponent (`2.0`, `0.1`, `1e20`, `1.5e-7`).
    private static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        var text = "\(d)"
        if let e = text.firstIndex(of: "e") {
            var exponent = text[text.index(after: e)...]
            var sign = ""
            if exponent.first == "+" || exponent.first == "-" {
                sign = exponent.first == "-" ? "-" : ""
                exponent = exponent.dropFirst()
            }
            while exponent.count > 1, exponent.first == "0" { exponent = exponent.dropFirst() }
            text = String(text[..<e]).replacingSuffix(".0") + "e" + sign + exponent
        }
        return text
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension String {
    fileprivate func replacingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
