/// A string that is not a valid D-Bus name, path or signature, with the reason.
public struct DBusNameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of name was being validated ("object path", "bus name", …).
    public let kind: String
    /// The rejected text.
    public let text: String
    /// Why it was rejected, in a few words.
    public let reason: String

    public var description: String { "invalid D-Bus \(kind) \"\(text)\": \(reason)" }
}

/// Character classes shared by the name validators (D-Bus specification, "Valid Names").
enum NameRules {
    static func isAlpha(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) }
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    /// `[A-Za-z0-9_]`
    static func isElementChar(_ c: UInt8) -> Bool { isAlpha(c) || isDigit(c) || c == 0x5f }

    /// Validates dot-separated elements of `[A-Za-z0-9_-]` (hyphen only if `allowHyphen`), at least two
    /// elements, none empty, none starting with a digit unless `allowLeadingDigit`, at most 255 bytes.
    static func validateDotted(
        _ text: String, kind: String, allowHyphen: Bool, allowLeadingDigit: Bool
    ) throws(DBusNameError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw DBusNameError(kind: kind, text: text, reason: "empty") }
        guard bytes.count <= 255 else {
            throw DBusNameError(kind: kind, text: text, reason: "longer than 255 bytes")
        }
        var elements = 0
        var elementStart = true
        for c in bytes {
            if c == 0x2e {
                if elementStart { throw DBusNameError(kind: kind, text: text, reason: "empty element") }
                elementStart = true
                continue
            }
            let ok = isElementChar(c) || (allowHyphen && c == 0x2d)
            guard ok else {
                throw DBusNameError(kind: kind, text: text, reason: "character '\(Character(Unicode.Scalar(c)))' not allowed")
            }
            if elementStart {
                if isDigit(c) && !allowLeadingDigit {
                    throw DBusNameError(kind: kind, text: text, reason: "element starts with a digit")
                }
                elements += 1
                elementStart = false
            }
        }
        if elementStart { throw DBusNameError(kind: kind, text: text, reason: "empty element") }
        guard elements >= 2 else { throw DBusNameError(kind: kind, text: text, reason: "needs at least two elements") }
    }
}
