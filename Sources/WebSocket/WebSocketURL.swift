/// A `ws://` URL (RFC 6455, section 3): host, port and resource path. `wss://` (TLS) is not supported:
/// tbrd talks to a commissioner on the same host or a trusted LAN.
public struct WebSocketURL: Hashable, Sendable, CustomStringConvertible {
    /// The host name or IP address (an IPv6 address without its brackets).
    public let host: String
    /// The TCP port (80 unless given).
    public let port: UInt16
    /// The resource path with any query, starting with `/`.
    public let path: String

    /// Reads `ws://HOST[:PORT][/PATH]`.
    /// - Throws: ``WebSocketError/invalidURL(_:reason:)`` saying what is wrong.
    public init(_ text: String) throws(WebSocketError) {
        let lower = text.lowercased()
        if lower.hasPrefix("wss://") {
            throw .invalidURL(text, reason: "wss:// (TLS) is not supported; use ws:// to a commissioner on this host or a trusted LAN")
        }
        guard lower.hasPrefix("ws://") else { throw .invalidURL(text, reason: "it does not start with ws://") }
        let rest = text.dropFirst(5)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var path = String(rest.dropFirst(authority.count))
        if let hash = path.firstIndex(of: "#") { path = String(path[..<hash]) }
        if path.isEmpty { path = "/" } else if path.first == "?" { path = "/" + path }
        guard !authority.contains("@") else { throw .invalidURL(text, reason: "user names and passwords are not supported") }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(text, reason: "an IPv6 address lacks its ']'") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw .invalidURL(text, reason: "unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw .invalidURL(text, reason: "it names no host") }
        guard host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidURL(text, reason: "the host contains spaces or characters that are not ASCII")
        }
        guard path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidURL(text, reason: "the path contains spaces or characters that are not ASCII")
        }
        var port: UInt16 = 80
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let p = UInt16(portText), p > 0 else {
                throw .invalidURL(text, reason: "the port is not a number from 1 to 65535")
            }
            port = p
        }
        self.host = String(host)
        self.port = port
        self.path = path
    }

    /// The `Host` header's value: the host (an IPv6 address in brackets) and the port unless it is 80.
    public var hostHeader: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? h : "\(h):\(port)"
    }

    public var description: String { "ws://\(hostHeader)\(path)" }
}
