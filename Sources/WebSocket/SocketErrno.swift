#if canImport(Glibc)
import Glibc
#endif

/// An `errno` from a socket call, with the system's sentence.
struct SocketErrno: Error, Hashable, Sendable, CustomStringConvertible {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
}
