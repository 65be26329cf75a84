import TBRFoundation

/// An interface's IPv6 settings that decide whether this host learns routes, among them a Thread
/// network's OMR route, from the Router Advertisements on that interface: the files of
/// `/proc/sys/net/ipv6/conf/IF/` (Documentation/networking/ip-sysctl.rst), which belong to the network
/// namespace of the process that reads them.
///
/// A Thread border router announces its OMR prefix to the infrastructure link in a Route Information
/// Option (RFC 4191) of its Router Advertisements. Linux acts on one only when it processes the
/// interface's Router Advertisements at all (``learnsRoutesFromRA``), router preferences are on
/// (`accept_ra_rtr_pref`), and the option's prefix length lies within
/// `accept_ra_rt_info_min_plen`…`accept_ra_rt_info_max_plen` (net/ipv6/ndisc.c).
public struct InterfaceIPv6Settings: Sendable, Equatable {
    /// `accept_ra`: 0 ignores Router Advertisements, 1 accepts them unless the interface forwards, 2
    /// accepts them even then.
    public var acceptRA: Int
    /// `forwarding`: non-zero when the interface forwards (the host is a router on it).
    public var forwarding: Int
    /// `accept_ra_rt_info_max_plen`: the longest prefix a Route Information Option may have to be
    /// used (kernel default 0: none is); nil when the kernel has no such setting (built without
    /// `CONFIG_IPV6_ROUTE_INFO`, so it ignores those options).
    public var acceptRARouteInfoMaxPrefixLength: Int?
    /// `accept_ra_rt_info_min_plen`: the shortest prefix a Route Information Option may have (kernel
    /// default 0); nil when the kernel has no such setting.
    public var acceptRARouteInfoMinPrefixLength: Int?
    /// `accept_ra_rtr_pref`: non-zero when router preferences and Route Information Options are used
    /// (kernel default 1); nil when the kernel has no such setting (built without
    /// `CONFIG_IPV6_ROUTER_PREF`).
    public var acceptRARouterPreference: Int?

    /// Settings from their values.
    /// - Parameters:
    ///   - acceptRA: `accept_ra`.
    ///   - forwarding: `forwarding`.
    ///   - acceptRARouteInfoMaxPrefixLength: `accept_ra_rt_info_max_plen`, nil when the kernel lacks it.
    ///   - acceptRARouteInfoMinPrefixLength: `accept_ra_rt_info_min_plen`, nil when the kernel lacks it.
    ///   - acceptRARouterPreference: `accept_ra_rtr_pref`, nil when the kernel lacks it.
    public init(
        acceptRA: Int, forwarding: Int, acceptRARouteInfoMaxPrefixLength: Int?, acceptRARouteInfoMinPrefixLength: Int?,
        acceptRARouterPreference: Int?
    ) {
        self.acceptRA = acceptRA
        self.forwarding = forwarding
        self.acceptRARouteInfoMaxPrefixLength = acceptRARouteInfoMaxPrefixLength
        self.acceptRARouteInfoMinPrefixLength = acceptRARouteInfoMinPrefixLength
        self.acceptRARouterPreference = acceptRARouterPreference
    }

    /// Whether the kernel processes this interface's Router Advertisements, as `ipv6_accept_ra()`
    /// decides: when the interface forwards, only with `accept_ra` 2; otherwise with any `accept_ra`
    /// but 0 (so 1 and 2, and also the values the kernel stores without documenting, such as 3 or -1).
    public var learnsRoutesFromRA: Bool {
        forwarding != 0 ? acceptRA == 2 : acceptRA != 0
    }

    /// Whether a Route Information Option for a /64, the length of every OMR prefix, is turned into a
    /// route: ``learnsRoutesFromRA``, `accept_ra_rtr_pref` on, `accept_ra_rt_info_max_plen` ≥ 64 and
    /// `accept_ra_rt_info_min_plen` ≤ 64. False on a kernel without these settings.
    public var acceptsOMRRoutes: Bool {
        guard learnsRoutesFromRA, let maximum = acceptRARouteInfoMaxPrefixLength, let preference = acceptRARouterPreference
        else { return false }
        return preference != 0 && maximum >= 64 && (acceptRARouteInfoMinPrefixLength ?? 0) <= 64
    }

    /// The files these settings come from, in each interface's directory. `accept_ra` and
    /// `forwarding` are always there; the kernel has the others only when built with route
    /// preferences and route information.
    public static let fileNames = [
        "accept_ra", "forwarding", "accept_ra_rt_info_max_plen", "accept_ra_rt_info_min_plen", "accept_ra_rtr_pref",
    ]

    /// The settings in `files`, file name (one of ``fileNames``) to contents (`"64\n"`), as read from
    /// an interface's directory by some other means (another namespace, a copy); a file the kernel
    /// lacks is left out.
    /// - Throws: ``HostNetworkError`` naming the file: `accept_ra` or `forwarding` is `.missing`, or a
    ///   value is not an integer (`.malformed`).
    public static func parse(files: [String: String]) throws(HostNetworkError) -> InterfaceIPv6Settings {
        try parse(files.mapValues { Array($0.utf8) }, directory: nil)
    }

    /// The settings of `interface` in the network namespace of this process, read now.
    /// - Parameters:
    ///   - interface: the interface's name; refused before the file system is touched unless it is a
    ///     plain name (1 to 15 bytes, not `.` or `..`, no slash, colon, space or control character).
    ///     `all` and `default` name the kernel's global and default settings.
    ///   - root: the directory of the per-interface directories.
    /// - Throws: ``HostNetworkError``: `.invalidInterfaceName`; `.noSuchInterface` when `root/interface`
    ///   does not exist (no such interface, or IPv6 is off); a file that cannot be read, is missing or
    ///   does not hold an integer, named by its path.
    public static func read(interface: String, root: String = "/proc/sys/net/ipv6/conf") throws(HostNetworkError)
        -> InterfaceIPv6Settings
    {
        if let problem = InterfaceNameRule.problem(with: interface.utf8) {
            throw HostNetworkError(.invalidInterfaceName(name: interface, problem: problem))
        }
        let directory = root + "/" + interface
        guard SystemFiles.isDirectory(directory) else { throw HostNetworkError(.noSuchInterface(interface), file: directory) }
        var files: [String: [UInt8]] = [:]
        for name in fileNames {
            files[name] = try SystemFiles.readIfPresent(directory + "/" + name, limit: maximumValueBytes)
        }
        return try parse(files, directory: directory)
    }

    /// More than any integer the kernel writes in a sysctl file.
    static let maximumValueBytes = 256

    /// The settings in `files`; errors name `directory/file`, or the file alone when `directory` is nil.
    static func parse(_ files: [String: [UInt8]], directory: String?) throws(HostNetworkError) -> InterfaceIPv6Settings {
        func path(_ name: String) -> String { directory.map { $0 + "/" + name } ?? name }
        func optional(_ name: String) throws(HostNetworkError) -> Int? {
            guard let bytes = files[name] else { return nil }
            guard bytes.count <= maximumValueBytes else { throw HostNetworkError(.tooLarge(limit: maximumValueBytes), file: path(name)) }
            guard let number = integer(bytes) else {
                let text = Quoted(String(decoding: bytes, as: UTF8.self), limit: 20)
                throw HostNetworkError(.malformed("\(text) is not an integer"), file: path(name))
            }
            return number
        }
        func required(_ name: String) throws(HostNetworkError) -> Int {
            guard let number = try optional(name) else { throw HostNetworkError(.missing, file: path(name)) }
            return number
        }
        return InterfaceIPv6Settings(
            acceptRA: try required("accept_ra"), forwarding: try required("forwarding"),
            acceptRARouteInfoMaxPrefixLength: try optional("accept_ra_rt_info_max_plen"),
            acceptRARouteInfoMinPrefixLength: try optional("accept_ra_rt_info_min_plen"),
            acceptRARouterPreference: try optional("accept_ra_rtr_pref"))
    }

    /// The decimal integer in `bytes` (an optional `-`, digits), white space around it allowed.
    private static func integer(_ bytes: [UInt8]) -> Int? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return nil
        }
        let digits = bytes[first...last]
        guard digits.first != UInt8(ascii: "+") else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }
}
