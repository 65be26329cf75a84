/// A Swift type that converts to and from one D-Bus complete type, so call sites pass and receive typed
/// values instead of building ``DBusValue`` trees by hand.
///
/// Conform a struct by mapping it to `.structure([...])`; conform an enum by mapping it to its wire
/// string or integer.
public protocol DBusRepresentable: Sendable {
    /// The D-Bus type this Swift type is sent as.
    static var dbusType: SignatureType { get }
    /// Converts a received value; throws ``DBusValueError`` if it has another type or shape.
    init(dbusValue: DBusValue) throws(DBusValueError)
    /// The value to send.
    var dbusValue: DBusValue { get }
}

extension DBusValue {
    /// Wraps any representable value.
    public init(_ value: some DBusRepresentable) { self = value.dbusValue }

    /// Converts to `T`, unwrapping a variant first when `T` is not itself a variant.
    public func decode<T: DBusRepresentable>(as _: T.Type = T.self) throws(DBusValueError) -> T {
        if case .variant(let inner) = self, T.dbusType != .variant { return try T(dbusValue: inner) }
        return try T(dbusValue: self)
    }
}

extension DBusValueError {
    static func mismatch(_ expected: SignatureType, _ found: DBusValue) -> DBusValueError {
        .typeMismatch(expected: expected.text, found: found.type.text)
    }
}

extension Bool: DBusRepresentable {
    public static var dbusType: SignatureType { .boolean }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .bool(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .bool(self) }
}

extension UInt8: DBusRepresentable {
    public static var dbusType: SignatureType { .byte }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .byte(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .byte(self) }
}

extension Int16: DBusRepresentable {
    public static var dbusType: SignatureType { .int16 }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .int16(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .int16(self) }
}

extension UInt16: DBusRepresentable {
    public static var dbusType: SignatureType { .uint16 }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .uint16(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .uint16(self) }
}

extension Int32: DBusRepresentable {
    public static var dbusType: SignatureType { .int32 }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .int32(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .int32(self) }
}

extension UInt32: DBusRepresentable {
    public static var dbusType: SignatureType { .uint32 }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .uint32(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .uint32(self) }
}

extension Int64: DBusRepresentable {
    public static var dbusType: SignatureType { .int64 }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .int64(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .int64(self) }
}

extension UInt64: DBusRepresentable {
    public static var dbusType: SignatureType { .uint64 }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .uint64(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .uint64(self) }
}

extension Double: DBusRepresentable {
    public static var dbusType: SignatureType { .double }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .double(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .double(self) }
}

extension String: DBusRepresentable {
    public static var dbusType: SignatureType { .string }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .string(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .string(self) }
}

extension ObjectPath: DBusRepresentable {
    public static var dbusType: SignatureType { .objectPath }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .objectPath(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .objectPath(self) }
}

extension Signature: DBusRepresentable {
    public static var dbusType: SignatureType { .signature }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .signature(let x) = v else { throw .mismatch(Self.dbusType, v) }
        self = x
    }
    public var dbusValue: DBusValue { .signature(self) }
}

extension DBusValue: DBusRepresentable {
    /// A bare `DBusValue` stands for a variant: it is sent wrapped in `v` and received unwrapped.
    public static var dbusType: SignatureType { .variant }
    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .variant(let inner) = v else { throw .mismatch(Self.dbusType, v) }
        self = inner
    }
    public var dbusValue: DBusValue { .variant(self) }
}

/// A closed set of names sent as a D-Bus string (a status, a kind): decoded at the edge, so that code
/// past it compares cases, never strings. A name outside the set is ``DBusValueError/invalid(_:)``.
public protocol DBusStringEnum: DBusRepresentable, RawRepresentable, CaseIterable where RawValue == String {}

extension DBusStringEnum {
    public static var dbusType: SignatureType { .string }

    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        let text = try String(dbusValue: v)
        guard let value = Self(rawValue: text) else {
            throw .invalid("\"\(text.prefix(40))\" is not one of \(Self.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        }
        self = value
    }

    public var dbusValue: DBusValue { .string(rawValue) }
}
