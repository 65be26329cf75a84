/// Words filled into lines of a given width: help screens, the usage lines of manual pages, and the
/// comment blocks of the generated configuration file.
public enum TextFill {
    /// `words` joined by spaces into lines of at most `width` characters (a longer word gets a line of
    /// its own); lines after the first start with `indent` spaces.
    public static func lines(_ words: [String], width: Int, indent: Int = 0) -> [String] {
        var lines: [String] = []
        var line: String?
        for word in words {
            if let current = line, current.count + 1 + word.count <= width {
                line = current + " " + word
            } else {
                if let current = line { lines.append(current) }
                line = (lines.isEmpty ? "" : String(repeating: " ", count: indent)) + word
            }
        }
        if let line { lines.append(line) }
        return lines
    }

    /// The words of `text` (separated by spaces and line breaks) filled into lines of at most `width`.
    public static func lines(of text: String, width: Int) -> [String] {
        lines(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init), width: width)
    }
}
