#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#endif

/// One socket address, IPv4 or IPv6, as `getaddrinfo` gives it: the one name-to-address lookup and
/// socket setup of tbrd's TCP client and listener, its HTTP server and its DTLS sessions.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// What the socket carries.
    public enum Transport: Sendable {
        /// TCP.
        case stream
        /// UDP.
        case datagram

        var socketType: Int32 { self == .stream ? Int32(SOCK_STREAM.rawValue) : Int32(SOCK_DGRAM.rawValue) }
    }

    /// How a name is looked up.
    public struct Lookup: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Only numeric addresses; no name service is asked (`AI_NUMERICHOST`).
        public static let numericHost = Lookup(rawValue: AI_NUMERICHOST)
        /// For binding: a missing host means every address (`AI_PASSIVE`).
        public static let passive = Lookup(rawValue: AI_PASSIVE)
        /// Only the families the host has an address of (`AI_ADDRCONFIG`).
        public static let configuredFamilies = Lookup(rawValue: AI_ADDRCONFIG)
    }

    /// A lookup that found nothing.
    public struct LookupError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The host looked up.
        public let host: String
        /// `getaddrinfo`'s code (`EAI_NONAME`, …).
        public let code: Int32
        /// "cannot resolve HOST: <the resolver's sentence>".
        public var description: String { "cannot resolve \(host): \(String(cString: gai_strerror(code)))" }
    }

    /// `AF_INET` or `AF_INET6`.
    public let family: Int32
    /// The `sockaddr_in` or `sockaddr_in6`, as bytes.
    public let bytes: [UInt8]

    /// The address in `address` (`length` bytes of it).
    public init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        family = Int32(address.pointee.sa_family)
        bytes = [UInt8](UnsafeRawBufferPointer(start: address, count: Int(length)))
    }

    /// Every address of `host` and `port` for `transport`, in the resolver's order.
    /// - Throws: ``LookupError`` when there is none.
    public static func resolve(
        host: String, port: UInt16, _ transport: Transport, _ lookup: Lookup = []
    ) throws(LookupError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = transport.socketType
        hints.ai_flags = lookup.rawValue | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let list else { throw LookupError(host: host, code: rc == 0 ? EAI_NONAME : rc) }
        defer { freeaddrinfo(list) }
        var found: [SocketAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry {
            entry = info.pointee.ai_next
            if let address = info.pointee.ai_addr { found.append(SocketAddress(address, length: info.pointee.ai_addrlen)) }
        }
        guard !found.isEmpty else { throw LookupError(host: host, code: EAI_NONAME) }
        return found
    }

    /// The address socket `fd` is bound to (`getsockname`); nil when it has none.
    public static func local(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(fd, $0, &length) == 0 ? SocketAddress($0, length: length) : nil
            }
        }
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    public func withSockaddr<R, E: Error>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = bytes.withUnsafeBytes { raw in
            let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            do throws(E) { return .success(try body(address, socklen_t(raw.count))) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// A new socket of this address's family for `transport`, close-on-exec (and non-blocking when
    /// asked); the caller owns it.
    /// - Throws: ``Errno`` of `socket(2)`.
    public func openSocket(_ transport: Transport, nonBlocking: Bool = false) throws(Errno) -> Int32 {
        var type = transport.socketType | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        let fd = socket(family, type, 0)
        guard fd >= 0 else { throw Errno.current }
        return fd
    }

    /// Binds `fd` to this address with `SO_REUSEADDR` (an IPv6 one taking IPv4 too, unless
    /// `v6Only`), and listens with `backlog` when given (a stream socket).
    /// - Throws: ``Errno`` of `bind(2)` or `listen(2)`; `fd` stays the caller's to close.
    public func bind(_ fd: Int32, listening backlog: Int32? = nil, v6Only: Bool = false) throws(Errno) {
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            var only: Int32 = v6Only ? 1 : 0
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = withSockaddr { address, length in Glibc.bind(fd, address, length) }
        guard bound == 0 else { throw Errno.current }
        if let backlog, listen(fd, backlog) != 0 { throw Errno.current }
    }

    /// The numeric host (with a zone for a link-local IPv6 one) and port (`getnameinfo`).
    public var endpoint: (host: String, port: UInt16) {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let ok = withSockaddr { address, length in
            getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                        NI_NUMERICHOST | NI_NUMERICSERV) == 0
        }
        guard ok else { return ("?", 0) }
        func text(_ chars: [CChar]) -> String {
            String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return (text(host), UInt16(text(service)) ?? 0)
    }

    /// The port (`sin_port` and `sin6_port` are at the same offset).
    public var port: UInt16 { endpoint.port }

    /// `192.0.2.1:80`, `[2001:db8::1]:80`.
    public var description: String {
        let (host, port) = endpoint
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
