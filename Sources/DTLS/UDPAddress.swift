import TBRFoundation

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

    /// The socket address (numeric: no name lookup).
    func socketAddress() -> SocketAddress? { Self.resolve(host, port) }

    private static func resolve(_ host: String, _ port: UInt16) -> SocketAddress? {
        try? SocketAddress.resolve(host: host, port: port, .datagram, .numericHost).first
    }
}
