/// A D-Bus bus name: a unique connection name (`:1.42`) or a well-known name (`io.tbrd`).
public struct BusName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name text.
    public let rawValue: String

    /// Validates `rawValue` by the specification's rules for bus names.
    /// - Throws: ``DBusNameError`` naming the problem.
    public init(_ rawValue: String) throws(DBusNameError) {
        if rawValue.hasPrefix(":") {
            try NameRules.validateDotted(
                String(rawValue.dropFirst()), kind: "bus name", allowHyphen: true, allowLeadingDigit: true)
        } else {
            try NameRules.validateDotted(rawValue, kind: "bus name", allowHyphen: true, allowLeadingDigit: false)
        }
        self.rawValue = rawValue
    }

    /// A name from a literal known to be valid; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("\(error)") }
    }

    init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// True for a unique connection name such as `:1.42`.
    public var isUnique: Bool { rawValue.hasPrefix(":") }

    /// The message bus itself, `org.freedesktop.DBus`.
    public static let bus = BusName(unchecked: "org.freedesktop.DBus")

    public var description: String { rawValue }
}
