/// Why one command-line word is not an acceptable value, as a clause that completes
/// "invalid value 'X' for '--option': …", e.g. `a Thread channel is 11 to 26`.
public struct ArgumentValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The reason, without a trailing period.
    public var reason: String

    /// A rejection for `reason`.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// A type that can be read from one command-line word, for ``ParsedValues/value(_:as:)``.
///
/// Types from other modules are better read with a function passed to
/// ``ParsedValues/value(_:_:)`` than made to conform here.
public protocol ExpressibleByArgument: Sendable {
    /// Reads `argument`, or throws why it does not fit.
    init(argument: String) throws(ArgumentValueError)
}

extension String: ExpressibleByArgument {
    /// The word itself.
    public init(argument: String) { self = argument }
}

extension ExpressibleByArgument where Self: FixedWidthInteger {
    /// A decimal number within the type's range.
    public init(argument: String) throws(ArgumentValueError) {
        guard let value = Self(argument, radix: 10) else {
            throw ArgumentValueError("expected a whole number from \(Self.min) to \(Self.max)")
        }
        self = value
    }
}

extension Int: ExpressibleByArgument {}
extension UInt8: ExpressibleByArgument {}
extension UInt16: ExpressibleByArgument {}
extension UInt32: ExpressibleByArgument {}
extension UInt64: ExpressibleByArgument {}
