/// A D-Bus interface name such as `io.openthread.BorderRouter`, validated on construction.
public struct InterfaceName: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name text.
    public let rawValue: String

    /// Validates `rawValue`: two or more `.`-separated elements of `[A-Za-z0-9_]`, none starting with a digit.
    /// - Throws: ``DBusNameError`` naming the problem.
    public init(_ rawValue: String) throws(DBusNameError) {
        try NameRules.validateDotted(rawValue, kind: "interface name", allowHyphen: false, allowLeadingDigit: false)
        self.rawValue = rawValue
    }

    /// A name from a literal known to be valid; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("\(error)") }
    }

    init(unchecked rawValue: String) { self.rawValue = rawValue }

    public static let properties = InterfaceName(unchecked: "org.freedesktop.DBus.Properties")
    public static let introspectable = InterfaceName(unchecked: "org.freedesktop.DBus.Introspectable")
    public static let peer = InterfaceName(unchecked: "org.freedesktop.DBus.Peer")
    public static let bus = InterfaceName(unchecked: "org.freedesktop.DBus")

    public var description: String { rawValue }
    public static func < (a: InterfaceName, b: InterfaceName) -> Bool { a.rawValue < b.rawValue }
}
