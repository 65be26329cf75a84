#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import TBRFoundation

/// The on-link prefixes of one network interface: the prefixes of the addresses configured on it, as
/// the kernel reports them (`getifaddrs(3)`), link-local IPv6 left out.
public struct LinkAddresses: Hashable, Sendable {
    /// Its IPv6 prefixes (ULA and global), sorted, without duplicates.
    public var ipv6: [IPv6Prefix]
    /// Its IPv4 subnets, sorted, without duplicates.
    public var ipv4: [IPv4Subnet]

    /// Prefixes as given (sorted and deduplicated).
    public init(ipv6: [IPv6Prefix] = [], ipv4: [IPv4Subnet] = []) {
        self.ipv6 = Array(Set(ipv6)).sorted()
        self.ipv4 = Array(Set(ipv4)).sorted()
    }

    /// No prefixes (an interface that does not exist or has no addresses).
    public static let none = LinkAddresses()

    /// The on-link prefixes of each interface in `names`, read from the kernel now. An interface that
    /// does not exist, or has no addresses, gets ``none``.
    /// - Throws: ``FirewallError`` when `getifaddrs` fails.
    public static func read(_ names: Set<String>) throws(FirewallError) -> [String: LinkAddresses] {
        var result: [String: LinkAddresses] = [:]
        for name in names { result[name] = LinkAddresses.none }
        guard !names.isEmpty else { return result }
        var head: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&head) == 0 else { throw .system("getifaddrs", errno) }
        defer { freeifaddrs(head) }
        var v6: [String: [IPv6Prefix]] = [:]
        var v4: [String: [IPv4Subnet]] = [:]
        var cursor = head
        while let entry = cursor?.pointee {
            defer { cursor = entry.ifa_next }
            guard let cName = entry.ifa_name, let address = entry.ifa_addr, let mask = entry.ifa_netmask else { continue }
            let name = String(cString: cName)
            guard names.contains(name) else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET6:
                let a = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { bytes(of: $0.pointee.sin6_addr) }
                let m = mask.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { bytes(of: $0.pointee.sin6_addr) }
                let prefix = IPv6Prefix(address: a, length: prefixLength(m))
                if !prefix.isLinkLocal { v6[name, default: []].append(prefix) }
            case AF_INET:
                let a = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { bytes(of: $0.pointee.sin_addr) }
                let m = mask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { bytes(of: $0.pointee.sin_addr) }
                v4[name, default: []].append(IPv4Subnet(address: a, length: prefixLength(m)))
            default:
                continue
            }
        }
        for name in names { result[name] = LinkAddresses(ipv6: v6[name] ?? [], ipv4: v4[name] ?? []) }
        return result
    }

    private static func bytes<T>(of value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    /// The number of leading one bits of a netmask.
    private static func prefixLength(_ mask: [UInt8]) -> Int {
        var n = 0
        for byte in mask {
            if byte == 0xFF {
                n += 8
                continue
            }
            n += (~byte).leadingZeroBitCount
            break
        }
        return n
    }
}
