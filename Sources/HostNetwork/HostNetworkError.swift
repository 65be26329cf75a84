#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TBRFoundation

/// Why the host's network configuration could not be read, as one sentence that names the file, the
/// line when there is one, and the reason.
public struct HostNetworkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The file could not be opened or read; the `errno` of `open(2)` or `read(2)`.
        case unreadable(errno: Int32)
        /// The file holds more than `limit` bytes, more than any real one.
        case tooLarge(limit: Int)
        /// A file the reading needs is not there.
        case missing
        /// The text does not have the kernel's form; why, as the end of a sentence.
        case malformed(String)
        /// `name` is not a plain interface name (`problem` says why); nothing was read.
        case invalidInterfaceName(name: String, problem: String)
        /// No directory for interface `name` under the sysctl tree: no such interface, or no IPv6 on it.
        case noSuchInterface(String)
    }

    /// What went wrong.
    public let reason: Reason
    /// The file's path (or, for ``InterfaceIPv6Settings/parse(files:)``, its name); nil for text given
    /// to ``IPv6RouteTable/parse(_:)``.
    public let file: String?
    /// The 1-based line the problem is on, when it is on one.
    public let line: Int?

    /// An error for `reason` in `file` at `line`.
    /// - Parameters:
    ///   - reason: what went wrong.
    ///   - file: the path or name of the file, if any.
    ///   - line: the 1-based line, if any.
    public init(_ reason: Reason, file: String? = nil, line: Int? = nil) {
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// One sentence: "/proc/net/ipv6_route, line 3: the metric \"00zz0400\" is not 8 hex digits".
    public var description: String {
        let place: String =
            switch (file, line) {
            case (let file?, let line?): "\(file), line \(line)"
            case (let file?, nil): file
            case (nil, let line?): "line \(line) of the IPv6 route table"
            case (nil, nil): "the IPv6 route table"
            }
        switch reason {
        case .unreadable(let code): return "cannot read \(place): \(Errno(code).description)"
        case .tooLarge(let limit): return "\(place) holds more than \(limit) bytes"
        case .missing: return "\(place) is missing"
        case .malformed(let why): return "\(place): \(why)"
        case .invalidInterfaceName(let name, let problem): return "\(Quoted(name)) is not an interface name: \(problem)"
        case .noSuchInterface(let name):
            return "no interface \(Quoted(name)) with IPv6 on this host (\(place) does not exist)"
        }
    }
}
