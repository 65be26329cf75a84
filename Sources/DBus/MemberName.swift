/// A D-Bus method or signal name such as `ActivateEphemeralKeyMode`, validated on construction.
public struct MemberName: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name text.
    public let rawValue: String

    /// Validates `rawValue`: 1–255 characters of `[A-Za-z0-9_]`, not starting with a digit.
    /// - Throws: ``DBusNameError`` naming the problem.
    public init(_ rawValue: String) throws(DBusNameError) {
        let bytes = Array(rawValue.utf8)
        func fail(_ reason: String) -> DBusNameError { DBusNameError(kind: "member name", text: rawValue, reason: reason) }
        guard !bytes.isEmpty else { throw fail("empty") }
        guard bytes.count <= 255 else { throw fail("longer than 255 bytes") }
        guard !NameRules.isDigit(bytes[0]) else { throw fail("starts with a digit") }
        for c in bytes where !NameRules.isElementChar(c) {
            throw fail("character '\(Character(Unicode.Scalar(c)))' not allowed")
        }
        self.rawValue = rawValue
    }

    /// A name from a literal known to be valid; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("\(error)") }
    }

    init(unchecked rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
    public static func < (a: MemberName, b: MemberName) -> Bool { a.rawValue < b.rawValue }
}
