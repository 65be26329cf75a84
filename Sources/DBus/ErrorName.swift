/// A D-Bus error name such as `io.openthread.Error.Busy`, validated on construction.
public struct ErrorName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name text.
    public let rawValue: String

    /// Validates `rawValue` by the rules for interface names.
    /// - Throws: ``DBusNameError`` naming the problem.
    public init(_ rawValue: String) throws(DBusNameError) {
        try NameRules.validateDotted(rawValue, kind: "error name", allowHyphen: false, allowLeadingDigit: false)
        self.rawValue = rawValue
    }

    /// A name from a literal known to be valid; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("\(error)") }
    }

    init(unchecked rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    // The standard names (org.freedesktop.DBus.Error.*) this layer produces or callers commonly test for.
    public static let failed = ErrorName(unchecked: "org.freedesktop.DBus.Error.Failed")
    public static let noReply = ErrorName(unchecked: "org.freedesktop.DBus.Error.NoReply")
    public static let timeout = ErrorName(unchecked: "org.freedesktop.DBus.Error.Timeout")
    public static let disconnected = ErrorName(unchecked: "org.freedesktop.DBus.Error.Disconnected")
    public static let serviceUnknown = ErrorName(unchecked: "org.freedesktop.DBus.Error.ServiceUnknown")
    public static let nameHasNoOwner = ErrorName(unchecked: "org.freedesktop.DBus.Error.NameHasNoOwner")
    public static let accessDenied = ErrorName(unchecked: "org.freedesktop.DBus.Error.AccessDenied")
    public static let unknownMethod = ErrorName(unchecked: "org.freedesktop.DBus.Error.UnknownMethod")
    public static let unknownObject = ErrorName(unchecked: "org.freedesktop.DBus.Error.UnknownObject")
    public static let unknownInterface = ErrorName(unchecked: "org.freedesktop.DBus.Error.UnknownInterface")
    public static let unknownProperty = ErrorName(unchecked: "org.freedesktop.DBus.Error.UnknownProperty")
    public static let propertyReadOnly = ErrorName(unchecked: "org.freedesktop.DBus.Error.PropertyReadOnly")
    public static let invalidArgs = ErrorName(unchecked: "org.freedesktop.DBus.Error.InvalidArgs")
    public static let invalidSignature = ErrorName(unchecked: "org.freedesktop.DBus.Error.InvalidSignature")
    public static let noMemory = ErrorName(unchecked: "org.freedesktop.DBus.Error.NoMemory")
}
