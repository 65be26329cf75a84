import Dispatch
import TBRFoundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Changes the kernel announces on a netlink multicast group, as a stream: a netlink socket of one
/// protocol bound to some groups, watched by a `DescriptorWatch` on a queue of its own. The messages are
/// not parsed: any one means "it changed, read it again". ``RouteMonitor`` (IPv6 routes, for the health
/// monitor) and, in the Firewall module, `AddressMonitor` and `RulesetMonitor` are its uses.
package enum NetlinkMonitor {
    /// A stream that yields once per burst of messages until it is dropped or its consumer is cancelled
    /// (the socket is closed then); nil when the socket cannot be opened, bound or watched (the caller
    /// then polls).
    /// - Parameters:
    ///   - netlinkProtocol: `NETLINK_ROUTE` (0), `NETLINK_NETFILTER` (12), … (linux/netlink.h).
    ///   - groups: the group bit mask of `sockaddr_nl.nl_groups` (groups 1 to 32).
    package static func changes(netlinkProtocol: Int32, groups: UInt32, label: String) -> AsyncStream<Void>? {
        let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), netlinkProtocol)
        guard fd >= 0 else { return nil }
        // struct sockaddr_nl { sa_family_t nl_family; unsigned short nl_pad; __u32 nl_pid; __u32 nl_groups; }
        var address = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: UInt16(AF_NETLINK)) { address.replaceSubrange(0..<2, with: $0) }
        withUnsafeBytes(of: groups) { address.replaceSubrange(8..<12, with: $0) }
        let bound = address.withUnsafeBytes { bind(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(12)) }
        guard bound == 0 else {
            close(fd)
            return nil
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let queue = DispatchQueue(label: label)
        let watch: DescriptorWatch? = queue.sync {
            let watch = try? DescriptorWatch(taking: fd, events: .readable, queue: queue) { _ in
                var buffer = [UInt8](repeating: 0, count: 16384)
                var any = false
                while true {
                    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if n > 0 {
                        any = true
                        continue
                    }
                    // ENOBUFS: the kernel dropped messages; something changed all the same.
                    if n < 0, errno == ENOBUFS {
                        any = true
                        continue
                    }
                    break
                }
                if any { continuation.yield() }
            }
            watch?.enabled = .readable
            return watch
        }
        guard let watch else { return nil }
        // The stream owns the watch: ending the stream cancels it, which closes the socket.
        continuation.onTermination = { _ in queue.async { watch.cancel() } }
        return stream
    }
}

/// IPv6 route changes from the kernel: rtnetlink's `RTMGRP_IPV6_ROUTE` group (rtnetlink(7)), in tbrd's
/// network namespace.
package enum RouteMonitor {
    /// Yields once per burst of route changes; nil when they cannot be followed.
    package static func changes() -> AsyncStream<Void>? {
        // NETLINK_ROUTE; RTMGRP_IPV6_ROUTE = 0x400 (linux/rtnetlink.h).
        NetlinkMonitor.changes(netlinkProtocol: 0, groups: 0x400, label: "tbrd.route-monitor")
    }
}
