/// One DNS-SD service instance as browsing and resolving found it, merged over the interfaces and IP
/// protocols it was seen on.
public struct DiscoveredService: Hashable, Sendable, CustomStringConvertible {
    /// The instance name, e.g. "OpenThread BorderRouter #0BBF" (UTF-8, unescaped).
    public var name: String
    /// The service type.
    public var type: ServiceType
    /// The domain, normally `local`.
    public var domain: String
    /// The target host name of its SRV record, e.g. `otbr.local`.
    public var hostName: String
    /// The addresses its host name resolved to (IPv4 dotted, IPv6 with `%interface` for link-local),
    /// sorted, without repeats.
    public var addresses: [String]
    /// The port of its SRV record.
    public var port: UInt16
    /// Its TXT record in DNS wire format (RFC 6763 §6: length-prefixed `key=value` strings), as Avahi
    /// received it. Decode it with a codec that expects hostile input.
    public var txt: [UInt8]
    /// The indexes of the network interfaces it was seen on.
    public var interfaces: [Int32]
    /// Whether it was published by this host (Avahi's `AVAHI_LOOKUP_RESULT_LOCAL`).
    public var isLocal: Bool

    /// A service as given.
    public init(
        name: String, type: ServiceType, domain: String = "local", hostName: String, addresses: [String], port: UInt16,
        txt: [UInt8], interfaces: [Int32] = [], isLocal: Bool = false
    ) {
        self.name = name
        self.type = type
        self.domain = domain
        self.hostName = hostName
        self.addresses = addresses
        self.port = port
        self.txt = txt
        self.interfaces = interfaces
        self.isLocal = isLocal
    }

    /// The service's identity: instance name, type and domain.
    public var key: ServiceKey { ServiceKey(name: name, type: type, domain: domain) }

    /// "name" (type) at host:port.
    public var description: String { "\"\(name)\" (\(type)) at \(hostName):\(port)" }
}

/// What identifies a service instance: its name, type and domain (RFC 6763 §4.1).
public struct ServiceKey: Hashable, Sendable, Comparable {
    /// The instance name.
    public var name: String
    /// The service type.
    public var type: ServiceType
    /// The domain, normally `local`.
    public var domain: String

    /// The key of instance `name` of `type` in `domain`.
    public init(name: String, type: ServiceType, domain: String = "local") {
        self.name = name
        self.type = type
        self.domain = domain
    }

    /// Orders by type, then name, then domain.
    public static func < (a: ServiceKey, b: ServiceKey) -> Bool {
        (a.type, a.name, a.domain) < (b.type, b.name, b.domain)
    }
}

/// A change of the services of one type.
public enum ServiceEvent: Hashable, Sendable {
    /// A service was found and resolved.
    case added(DiscoveredService)
    /// A service already reported changed (TXT, port, host or addresses).
    case updated(DiscoveredService)
    /// A service already reported is gone.
    case removed(DiscoveredService, RemovalReason)
    /// The consumer fell behind and events were not delivered: these are every service known now (found
    /// and resolved), in name order. A service reported before and absent here is gone
    /// (``RemovalReason/missedWhileBehind``); one present here is there now, added or changed. Events
    /// continue after it.
    case resynchronized([DiscoveredService])

    /// The service concerned; nil for ``resynchronized(_:)``.
    public var service: DiscoveredService? {
        switch self {
        case .added(let s), .updated(let s), .removed(let s, _): s
        case .resynchronized: nil
        }
    }
}

/// Why a service is reported gone.
public enum RemovalReason: String, Hashable, Sendable {
    /// Its publisher withdrew it (a goodbye packet, or its records expired from the cache).
    case withdrawn
    /// It is still announced but no longer resolves (Avahi's resolver failed, for example a stale
    /// cache entry of a publisher that exited without goodbye packets).
    case unresolvable
    /// avahi-daemon restarted and the service was not found again.
    case notFoundAfterRestart
    /// Its removal happened while the consumer was behind: a ``ServiceEvent/resynchronized(_:)`` no
    /// longer lists it.
    case missedWhileBehind
}
