/// Text that came from outside (a name, a file path, an argument), made safe to echo in a message:
/// in double quotes, control and invisible formatting characters escaped (`\n`, `\t`, `\u{1B}`), and
/// cut to `limit` characters with "…" and the full length. A 100 KB name cannot become a 100 KB error
/// message, and `$'\e[2J'` cannot clear the reader's terminal.
public struct Quoted: CustomStringConvertible, Sendable {
    /// The text as given.
    public let text: String
    /// The most characters of it shown.
    public let limit: Int

    /// `text`, to be shown with at most `limit` characters.
    public init(_ text: String, limit: Int = 64) {
        self.text = text
        self.limit = limit
    }

    public var description: String {
        var out = "\""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == limit {
                out += "…\" (\(text.unicodeScalars.count) characters)"
                return out
            }
            out += Self.escaped(scalar)
            shown += 1
        }
        return out + "\""
    }

    /// `text` made safe for a terminal without quoting it: control and invisible characters escaped
    /// (line breaks and tabs are kept), cut to `limit` characters. For messages that come from elsewhere (a peer's error).
    public static func sanitized(_ text: String, limit: Int = 2000) -> String {
        var out = ""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == limit { return out + "…" }
            switch scalar {
            case "\"", "\\", "\n", "\t": out.unicodeScalars.append(scalar)
            default: out += escaped(scalar)
            }
            shown += 1
        }
        return out
    }

    /// One character as it is shown: printable ones as they are, the others escaped.
    static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default: break
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default:
            return String(scalar)
        }
    }
}
