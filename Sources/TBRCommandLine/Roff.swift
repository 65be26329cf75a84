/// Text for manual pages in roff, the language `man` reads: the escapes groff needs and the few
/// requests the generated pages use.
public enum Roff {
    /// `text` safe in a roff line: backslashes and dashes escaped (options stay copyable), common
    /// typographic characters as groff's names, other non-ASCII characters as `\[uXXXX]`, and a line
    /// that would start with `.` or `'` guarded so it is not read as a request.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case "\u{2026}": escaped += "..."
            case "\u{2014}": escaped += "\\(em"
            case "\u{2013}": escaped += "\\(en"
            case "\u{2018}", "\u{2019}": escaped += "\\(aq"
            case "\u{201C}", "\u{201D}": escaped += "\\(dq"
            case "\u{2192}": escaped += "\\(->"
            case "\u{2264}": escaped += "\\(<="
            case "\u{2265}": escaped += "\\(>="
            case "\u{00D7}": escaped += "\\(mu"
            default:
                if scalar.isASCII {
                    escaped.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    /// Paragraphs separated by blank lines, each a `.PP` paragraph that `man` fills; a paragraph with
    /// indented lines (an example) is kept line by line, indented.
    public static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true).map { paragraph -> String in
            let lines = paragraph.split(separator: "\n")
            if lines.contains(where: { $0.hasPrefix(" ") }) {
                let kept = lines.map { escape(String($0.drop(while: { $0 == " " }))) }
                return ".PP\n.RS 4\n.nf\n" + kept.joined(separator: "\n") + "\n.fi\n.RE"
            }
            return ".PP\n" + escape(lines.map { $0.trimmingSpaces }.joined(separator: " "))
        }.joined(separator: "\n")
    }

    /// A tagged paragraph (`.TP`): `tag` (already roff) and its indented `text`.
    public static func tagged(_ tag: String, _ text: String) -> String {
        ".TP\n" + tag + "\n" + escape(text)
    }

    /// `text` in bold.
    public static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }

    /// `text` in italics.
    public static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

    /// The page's title line (`.TH`): `name` upper-cased, its section, and the program and version
    /// it documents. No date, so the same source builds the same page.
    public static func header(name: String, section: String, source: String, manual: String) -> String {
        ".TH \"\(name.uppercased())\" \"\(section)\" \"\" \"\(escape(source))\" \"\(escape(manual))\""
    }

    /// A `SEE ALSO` section naming `pages` (`tbrd(8)`), or nothing when there are none.
    public static func seeAlso(_ pages: [String]) -> String {
        guard !pages.isEmpty else { return "" }
        let references = pages.enumerated().map { index, page -> String in
            let name = page.prefix { $0 != "(" }
            let section = page.dropFirst(name.count)
            return ".BR \(escape(String(name))) \(section)\(index == pages.count - 1 ? "" : ",")"
        }
        return ".SH \"SEE ALSO\"\n" + references.joined(separator: "\n")
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
