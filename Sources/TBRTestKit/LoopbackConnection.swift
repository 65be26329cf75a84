import Glibc
import TBRFoundation

/// A TCP connection to `port` on 127.0.0.1 from local address `source` (every 127.x.y.z address is the
/// loopback's, so one machine plays many clients), blocking until connected. The caller closes it.
/// - Throws: ``TestKitError`` saying what failed.
public func loopbackConnection(to port: UInt16, from source: String = "127.0.0.1") throws -> Int32 {
    let fd: Int32
    do {
        let remote = try SocketAddress.resolve(host: "127.0.0.1", port: port, .stream, .numericHost)[0]
        let local = try SocketAddress.resolve(host: source, port: 0, .stream, .numericHost)[0]
        fd = try remote.openSocket(.stream)
        do {
            try local.bind(fd)
            guard remote.withSockaddr({ connect(fd, $0, $1) }) == 0 else { throw Errno.current }
        } catch {
            close(fd)
            throw error
        }
    } catch {
        throw TestKitError("cannot connect to 127.0.0.1 port \(port) from \(source): \(error)")
    }
    return fd
}
