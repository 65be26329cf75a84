public import TBRFoundation

/// One route of the kernel's IPv6 routing tables, as `/proc/net/ipv6_route` shows it.
///
/// That file lists the routes of every table (main, local, and any other) without saying which, and
/// `ip -6 route` draws the same routes from netlink.
public struct IPv6Route: Hashable, Sendable, CustomStringConvertible {
    /// The route's `RTF_` flags (linux/route.h and linux/ipv6_route.h); the bits without a name here
    /// are kept in ``rawValue``.
    public struct Flags: OptionSet, Hashable, Sendable {
        /// The 32 bits as the kernel prints them.
        public let rawValue: UInt32
        /// Flags of `rawValue`'s bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `RTF_UP`: the route is usable.
        public static let up = Flags(rawValue: 0x0000_0001)
        /// `RTF_GATEWAY`: packets go to a next hop (``IPv6Route/gateway``), not on-link.
        public static let gateway = Flags(rawValue: 0x0000_0002)
        /// `RTF_HOST`: a route to one address.
        public static let host = Flags(rawValue: 0x0000_0004)
        /// `RTF_DYNAMIC`: made by an ICMPv6 redirect.
        public static let dynamic = Flags(rawValue: 0x0000_0010)
        /// `RTF_MODIFIED`: changed by an ICMPv6 redirect.
        public static let modified = Flags(rawValue: 0x0000_0020)
        /// `RTF_REJECT`: packets are refused (the `unreachable`, `prohibit`, `blackhole` and `throw`
        /// route types of `ip route`).
        public static let reject = Flags(rawValue: 0x0000_0200)
        /// `RTF_DEFAULT`: a default route learned from a Router Advertisement.
        public static let defaultRouter = Flags(rawValue: 0x0001_0000)
        /// `RTF_ADDRCONF`: made by address autoconfiguration from a Router Advertisement.
        public static let addressConfiguration = Flags(rawValue: 0x0004_0000)
        /// `RTF_PREFIX_RT`: an on-link prefix from a Router Advertisement's Prefix Information Option.
        public static let prefixRoute = Flags(rawValue: 0x0008_0000)
        /// `RTF_ANYCAST`: an anycast address of this host.
        public static let anycast = Flags(rawValue: 0x0010_0000)
        /// `RTF_NONEXTHOP`: the route has no next hop.
        public static let noNextHop = Flags(rawValue: 0x0020_0000)
        /// `RTF_EXPIRES`: the route has a lifetime and goes when it ends.
        public static let expires = Flags(rawValue: 0x0040_0000)
        /// `RTF_ROUTEINFO`: learned from a Route Information Option of a Router Advertisement (RFC
        /// 4191), the way a Thread border router announces its OMR prefix on the infrastructure link.
        public static let routeInformation = Flags(rawValue: 0x0080_0000)
        /// `RTF_CACHE`: a cached route made by the kernel.
        public static let cache = Flags(rawValue: 0x0100_0000)
        /// `RTF_LOCAL`: an address of this host (the `local` table).
        public static let local = Flags(rawValue: 0x8000_0000)
    }

    /// The destination prefix; `::/0` for a default route.
    public var destination: IPv6Prefix
    /// The source prefix of a source-specific route (`ip -6 route add … from …`); `::/0` for the
    /// ordinary routes that apply to every source.
    public var source: IPv6Prefix
    /// The next hop's 16 address bytes, or nil when the kernel shows `::` (on-link and reject routes).
    public var gateway: [UInt8]?
    /// The metric: among routes to the same prefix the kernel uses the lowest.
    public var metric: UInt32
    /// The `RTF_` flags.
    public var flags: Flags
    /// The outgoing interface's name, or nil when the kernel shows none.
    public var interface: String?

    /// A route from its parts.
    /// - Parameters:
    ///   - destination: the destination prefix.
    ///   - source: the source prefix, `::/0` for an ordinary route.
    ///   - gateway: the next hop's 16 bytes, or nil.
    ///   - metric: the metric.
    ///   - flags: the `RTF_` flags.
    ///   - interface: the outgoing interface's name, or nil.
    /// - Precondition: `gateway` is nil or 16 bytes.
    public init(
        destination: IPv6Prefix, source: IPv6Prefix = IPv6Prefix(address: [UInt8](repeating: 0, count: 16), length: 0),
        gateway: [UInt8]? = nil, metric: UInt32, flags: Flags, interface: String?
    ) {
        precondition(gateway == nil || gateway?.count == 16, "an IPv6 gateway is 16 bytes")
        self.destination = destination
        self.source = source
        self.gateway = gateway
        self.metric = metric
        self.flags = flags
        self.interface = interface
    }

    /// Whether this is a default route (destination `::/0`).
    public var isDefault: Bool { destination.length == 0 }

    /// The next hop in `inet_ntop(3)`'s form (`fe80::1`), or nil.
    public var gatewayDescription: String? { gateway.map(IPv6Prefix.format) }

    /// The route the way `ip -6 route` writes it: `fd11:22::/64 via fe80::1 dev eth0 metric 1024`, with
    /// `reject` before a reject route and `from …` after a source-specific destination.
    public var description: String {
        var words = flags.contains(.reject) ? ["reject", destination.description] : [destination.description]
        if source.length > 0 { words += ["from", source.description] }
        if let gatewayDescription { words += ["via", gatewayDescription] }
        if let interface { words += ["dev", interface] }
        return (words + ["metric", String(metric)]).joined(separator: " ")
    }
}
