/// A D-Bus object path such as `/io/openthread/BorderRouter/wpan0`, validated on construction.
public struct ObjectPath: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path text.
    public let rawValue: String

    /// Validates `rawValue`: `/`, or `/`-separated non-empty elements of `[A-Za-z0-9_]` with no trailing slash.
    /// - Throws: ``DBusNameError`` naming the problem.
    public init(_ rawValue: String) throws(DBusNameError) {
        let bytes = Array(rawValue.utf8)
        func fail(_ reason: String) -> DBusNameError { DBusNameError(kind: "object path", text: rawValue, reason: reason) }
        guard bytes.first == 0x2f else { throw fail("must start with '/'") }
        if bytes.count > 1 {
            guard bytes.last != 0x2f else { throw fail("must not end with '/'") }
            var previousSlash = false
            for c in bytes {
                if c == 0x2f {
                    if previousSlash { throw fail("empty element") }
                    previousSlash = true
                } else {
                    guard NameRules.isElementChar(c) else {
                        throw fail("character '\(Character(Unicode.Scalar(c)))' not allowed")
                    }
                    previousSlash = false
                }
            }
        }
        self.rawValue = rawValue
    }

    /// A path from a literal known to be valid; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("\(error)") }
    }

    init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// The root path `/`.
    public static let root = ObjectPath(unchecked: "/")

    /// This path with `element` appended. `element` is escaped so any string makes a valid path element.
    public func appending(_ element: String) -> ObjectPath {
        let escaped = ObjectPath.escapeElement(element)
        return ObjectPath(unchecked: rawValue == "/" ? "/" + escaped : rawValue + "/" + escaped)
    }

    /// The path elements (empty for `/`).
    public var elements: [Substring] { rawValue.split(separator: "/") }

    /// True if `self` is `other` or lies below it.
    public func isDescendant(of other: ObjectPath) -> Bool {
        if other.rawValue == "/" { return true }
        return rawValue == other.rawValue || rawValue.hasPrefix(other.rawValue + "/")
    }

    /// Escapes any string into one valid path element: `[A-Za-z0-9]` pass through, everything else
    /// becomes `_xx` (lower-case hex of each UTF-8 byte), the same scheme systemd uses.
    public static func escapeElement(_ s: String) -> String {
        if s.isEmpty { return "_" }
        var out = ""
        for b in s.utf8 {
            if NameRules.isAlpha(b) || NameRules.isDigit(b) {
                out.append(Character(Unicode.Scalar(b)))
            } else {
                let hex = Array("0123456789abcdef")
                out += "_" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 0xf)])
            }
        }
        return out
    }

    public var description: String { rawValue }
    public static func < (a: ObjectPath, b: ObjectPath) -> Bool { a.rawValue < b.rawValue }
}
