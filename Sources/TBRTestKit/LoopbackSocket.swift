#if canImport(Glibc)
import Glibc
#endif

/// A socket of `type` (`SOCK_STREAM`, `SOCK_DGRAM`) bound to 127.0.0.1 on a port the kernel chose: its
/// descriptor (the caller closes it) and the port. Closed at once, the port is one nobody listens on for
/// the moment (a broker the test starts on it may still lose it to another process: retry then).
/// - Throws: ``TestKitError`` when no socket can be made or bound.
public func loopbackSocket(type: Int32) throws -> (descriptor: Int32, port: UInt16) {
    let fd = socket(AF_INET, type, 0)
    guard fd >= 0 else { throw TestKitError("cannot make a socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else {
        close(fd)
        throw TestKitError("cannot bind a port on loopback: errno \(errno)")
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}
