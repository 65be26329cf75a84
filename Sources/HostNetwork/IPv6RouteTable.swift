public import TBRFoundation

/// The kernel's IPv6 routes as `/proc/net/ipv6_route` lists them, and which of them lead to a prefix.
///
/// The file belongs to the network namespace of the process that reads it. Each line is one route,
/// fields apart by spaces: destination (32 hex digits) and its prefix length (2), source (32) and its
/// length (2), next hop (32), metric, reference count, use count and flags (8 each), and the device
/// name, right-aligned in 8 columns (absent when the route has no device).
public enum IPv6RouteTable {
    /// The largest file ``read(path:)`` takes: about 400,000 routes, twice a full Internet table.
    public static let maximumFileBytes = 64 << 20

    /// The routes of `text`, in `/proc/net/ipv6_route`'s format. Blank lines are skipped.
    /// - Parameter text: the file's contents.
    /// - Throws: ``HostNetworkError`` `.malformed` with the number of the first line that is not a route.
    public static func parse(_ text: String) throws(HostNetworkError) -> [IPv6Route] {
        try parse(bytes: Array(text.utf8), file: nil)
    }

    /// The routes in `path`, read now: by default those of the network namespace this process is in.
    /// - Parameter path: the file; `/proc/net/ipv6_route` (a link to `/proc/self/net/`), or
    ///   `/proc/PID/net/ipv6_route` for the namespace of process PID.
    /// - Throws: ``HostNetworkError`` naming `path`: it cannot be read (`.unreadable`, e.g. ENOENT on a
    ///   kernel without IPv6), holds more than ``maximumFileBytes`` (`.tooLarge`), or a line is malformed.
    public static func read(path: String = "/proc/net/ipv6_route") throws(HostNetworkError) -> [IPv6Route] {
        try parse(bytes: SystemFiles.read(path, limit: maximumFileBytes), file: path)
    }

    /// The routes in `routes` that lead to `prefix` specifically, most specific first (then lowest
    /// metric first).
    ///
    /// A route leads there when it is up, its destination contains `prefix` and is not the default
    /// route (length ≥ 1), it is not a reject route (`RTF_REJECT`), and no reject route for every source
    /// that also contains `prefix` is more specific than it, or as specific with a metric no higher: such a
    /// reject route wins the kernel's longest-prefix match and refuses the packets.
    ///
    /// Not considered: which table a route is in (the file does not say; a route in a table that no
    /// rule consults is counted), and reject routes for part of `prefix` only.
    /// - Parameters:
    ///   - prefix: the prefix to reach, such as a Thread network's OMR prefix.
    ///   - routes: the routing table, as ``read(path:)`` returns it.
    public static func routes(to prefix: IPv6Prefix, in routes: [IPv6Route]) -> [IPv6Route] {
        let covering = routes.filter { $0.destination.contains(prefix) }
        let rejects = covering.filter { $0.flags.contains(.reject) && $0.source.length == 0 }
        func shadowed(_ route: IPv6Route) -> Bool {
            rejects.contains { reject in
                reject.destination.length > route.destination.length
                    || (reject.destination.length == route.destination.length && reject.metric <= route.metric)
            }
        }
        let leading = covering.enumerated().filter { _, route in
            route.destination.length >= 1 && route.flags.contains(.up) && !route.flags.contains(.reject) && !shadowed(route)
        }
        return leading.sorted { a, b in
            if a.element.destination.length != b.element.destination.length {
                return a.element.destination.length > b.element.destination.length
            }
            return a.element.metric != b.element.metric ? a.element.metric < b.element.metric : a.offset < b.offset
        }.map(\.element)
    }

    /// `routes` in `/proc/net/ipv6_route`'s format, one line each, the reference and use counts 0:
    /// what ``parse(_:)`` reads back as the same routes.
    public static func format(_ routes: [IPv6Route]) -> String {
        routes.map { route in
            let device = route.interface ?? ""
            return [
                Hex.encode(route.destination.bytes), hex(route.destination.length, digits: 2),
                Hex.encode(route.source.bytes), hex(route.source.length, digits: 2),
                Hex.encode(route.gateway ?? [UInt8](repeating: 0, count: 16)),
                hex(Int(route.metric), digits: 8), hex(0, digits: 8), hex(0, digits: 8), hex(Int(route.flags.rawValue), digits: 8),
                String(repeating: " ", count: max(0, 8 - device.utf8.count)) + device,
            ].joined(separator: " ") + "\n"
        }.joined()
    }

    private static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
