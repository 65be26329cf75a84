import Dispatch
import TBRFoundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Address changes from the kernel: a netlink route socket subscribed to the IPv4 and IPv6 address
/// groups (`RTMGRP_IPV4_IFADDR`, `RTMGRP_IPV6_IFADDR`, rtnetlink(7)), watched by a Dispatch read source.
/// The messages are not parsed: any one means "addresses changed, read them again".
enum AddressMonitor {
    /// `NETLINK_ROUTE` (linux/netlink.h, which the Glibc module does not export).
    private static let netlinkRoute: Int32 = 0
    /// `RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR` (linux/rtnetlink.h).
    private static let addressGroups: UInt32 = 0x10 | 0x100

    /// A stream that yields once per burst of address changes until it is dropped or its consumer is
    /// cancelled (the socket is closed then); nil when the socket cannot be opened.
    static func changes() -> AsyncStream<Void>? {
        let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), netlinkRoute)
        guard fd >= 0 else { return nil }
        // struct sockaddr_nl { sa_family_t nl_family; unsigned short nl_pad; __u32 nl_pid; __u32 nl_groups; }
        var address = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: UInt16(AF_NETLINK)) { address.replaceSubrange(0..<2, with: $0) }
        withUnsafeBytes(of: addressGroups) { address.replaceSubrange(8..<12, with: $0) }
        let bound = address.withUnsafeBytes { bind(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(12)) }
        guard bound == 0 else {
            close(fd)
            return nil
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "tbrd.address-monitor"))
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 16384)
            var any = false
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    any = true
                    continue
                }
                // ENOBUFS: the kernel dropped messages; addresses changed all the same.
                if n < 0, errno == ENOBUFS {
                    any = true
                    continue
                }
                break
            }
            if any { continuation.yield() }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
        // The stream owns the source: ending the stream cancels it, which closes the socket.
        let owner = Locked<(any DispatchSourceRead)?>(source)
        continuation.onTermination = { _ in owner.withLock { $0?.cancel(); $0 = nil } }
        return stream
    }
}
