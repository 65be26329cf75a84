import Dispatch
import TBRFoundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Changes the kernel announces on a netlink multicast group, as a stream: a netlink socket of one
/// protocol bound to some groups, watched by a `DescriptorWatch` on a queue of its own. The messages are
/// not parsed: any one means "it changed, read it again". ``AddressMonitor`` (rtnetlink address groups)
/// and ``RulesetMonitor`` (nftables) are the two uses.
enum NetlinkMonitor {
    /// A stream that yields once per burst of messages until it is dropped or its consumer is cancelled
    /// (the socket is closed then); nil when the socket cannot be opened, bound or watched (the caller
    /// then polls).
    /// - Parameters:
    ///   - netlinkProtocol: `NETLINK_ROUTE` (0), `NETLINK_NETFILTER` (12), … (linux/netlink.h).
    ///   - groups: the group bit mask of `sockaddr_nl.nl_groups` (groups 1 to 32).
    static func changes(netlinkProtocol: Int32, groups: UInt32, label: String) -> AsyncStream<Void>? {
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

/// Address changes from the kernel: rtnetlink's IPv4 and IPv6 address groups (`RTMGRP_IPV4_IFADDR`,
/// `RTMGRP_IPV6_IFADDR`, rtnetlink(7)).
enum AddressMonitor {
    /// Yields once per burst of address changes; nil when they cannot be followed.
    static func changes() -> AsyncStream<Void>? {
        // NETLINK_ROUTE; RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR (linux/rtnetlink.h).
        NetlinkMonitor.changes(netlinkProtocol: 0, groups: 0x10 | 0x100, label: "tbrd.address-monitor")
    }
}

/// Ruleset changes from the kernel: nfnetlink's `NFNLGRP_NFTABLES` group, which announces every
/// nftables transaction (a table, chain, rule or set added, changed or deleted, `nft flush ruleset`
/// among them) in the network namespace. Binding to it needs `CAP_NET_ADMIN`, which tbrd has.
enum RulesetMonitor {
    /// Yields once per burst of ruleset changes; nil when they cannot be followed.
    static func changes() -> AsyncStream<Void>? {
        // NETLINK_NETFILTER (12); NFNLGRP_NFTABLES is group 7, bit 1 << (7 - 1) (linux/netfilter/nfnetlink.h).
        NetlinkMonitor.changes(netlinkProtocol: 12, groups: 1 << 6, label: "tbrd.ruleset-monitor")
    }
}
