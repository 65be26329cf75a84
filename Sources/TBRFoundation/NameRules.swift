/// The rules for the names people give things: structures, rooms and Matter nodes. A name is 1 to
/// `maximumBytes` UTF-8 bytes in Unicode NFC, with no control, format (zero-width, bidirectional
/// overrides, BOM), line or paragraph separator, private-use or unassigned characters, and does not start
/// or end with white space. Two names that look the same are the same name: names are compared and
/// stored in NFC (``canonical(_:)``).
public enum NameRules {
    /// `name` in Unicode Normalization Form C, the form names are stored, compared and looked up in, so
    /// "Café" typed precomposed or decomposed is one name. Uses the standard library's own NFC (the one
    /// `String` equality is defined by).
    public static func canonical(_ name: String) -> String {
        String(decoding: name._nfcCodeUnits, as: UTF8.self)
    }

    /// Why `name` breaks the rules, as the end of a sentence ("the name is empty"), or nil when it keeps them.
    public static func problem(with name: String, maximumBytes: Int) -> String? {
        let name = canonical(name)
        if name.isEmpty { return "the name is empty" }
        if name.utf8.count > maximumBytes { return "the name is longer than \(maximumBytes) bytes" }
        for scalar in name.unicodeScalars {
            let digits = String(scalar.value, radix: 16, uppercase: true)
            let hex = "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
            switch scalar.properties.generalCategory {
            case .control: return "the name contains a control character (\(hex))"
            case .format: return "the name contains an invisible formatting character (\(hex))"
            case .lineSeparator, .paragraphSeparator: return "the name contains a line or paragraph separator (\(hex))"
            case .privateUse, .unassigned, .surrogate: return "the name contains an unassigned or private-use character (\(hex))"
            default: continue
            }
        }
        if name.first!.isWhitespace || name.last!.isWhitespace { return "the name starts or ends with white space" }
        return nil
    }
}
