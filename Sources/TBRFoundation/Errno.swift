#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A C error number as a Swift error, as swift-system's `Errno`: the one C error type. Its description
/// is the system's sentence ("Connection refused").
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number (`ECONNREFUSED` is 111 on Linux).
    public let rawValue: Int32
    /// The error `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// The error `code`.
    public init(_ code: Int32) { self.rawValue = code }

    /// The calling thread's `errno` now (read it right after the failed call).
    public static var current: Errno { Errno(errno) }

    /// The system's sentence for the number.
    public var description: String { String(cString: strerror(rawValue)) }
}
