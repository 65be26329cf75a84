#if canImport(Glibc)
import Glibc
#endif

/// A numeric UDP address, IPv4 or IPv6 (with a zone for a link-local one): `192.0.2.1:49152`,
/// `[fe80::1%eth0]:49152`.
public struct UDPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address as text, without brackets.
    public let host: String
    public let port: UInt16

    /// An address from its parts; nil when `host` is not a numeric IPv4 or IPv6 address.
    public init?(host: String, port: UInt16) {
        guard port != 0, Self.resolve(host, port) != nil else { return nil }
        self.host = host
        self.port = port
    }

    /// `ADDR:PORT` or `[ADDR]:PORT`; nil for anything else.
    public init?(parsing text: String) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = UInt16(portText) else { return nil }
        self.init(host: String(host), port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The socket address (AI_NUMERICHOST: no name lookup).
    func sockaddr() -> (family: Int32, bytes: [UInt8])? { Self.resolve(host, port) }

    private static func resolve(_ host: String, _ port: UInt16) -> (family: Int32, bytes: [UInt8])? {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        guard let address = first.pointee.ai_addr else { return nil }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: address, count: Int(first.pointee.ai_addrlen)))
        return (first.pointee.ai_family, bytes)
    }
}
