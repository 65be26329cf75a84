/// Where the HTTPS API listens: `ADDR:PORT` with an IPv4 address or a bracketed IPv6 one.
public struct HTTPListen: Sendable, Hashable, CustomStringConvertible {
    /// The address, numeric, without brackets.
    public let host: String
    /// The port (0: any free one, for tests).
    public let port: UInt16

    /// Reads `127.0.0.1:8443`, `[::1]:8443`, `0.0.0.0:8443` or `[::]:8443`.
    /// - Throws: ``ConfigurationError`` saying what is wrong.
    public init(_ text: String) throws(ConfigurationError) {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ConfigurationError("expected [IPV6]:PORT, not '\(text)'")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw ConfigurationError("expected ADDR:PORT (an IPv6 address in brackets), not '\(text)'")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = UInt16(portText) else { throw ConfigurationError("'\(portText)' is not a port (0-65535)") }
        let isV4 = host.split(separator: ".", omittingEmptySubsequences: false).count == 4 && host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
        let isV6 = host.contains(":") && host.allSatisfy { $0 == ":" || $0 == "." || $0.isHexDigit }
        guard isV4 || isV6 else { throw ConfigurationError("'\(host)' is not a numeric IPv4 or IPv6 address") }
        self.host = String(host)
        self.port = port
    }

    /// Whether the address is a loopback one (127.0.0.0/8 or ::1): the only place plain HTTP is served.
    public var isLoopback: Bool {
        host.hasPrefix("127.") || host == "::1" || host == "0:0:0:0:0:0:0:1"
    }

    /// `127.0.0.1:8443`, `[::1]:8443`.
    public var description: String { Self.text(host: host, port: port) }

    /// `host` and `port` as `ADDR:PORT`, an IPv6 address in brackets.
    static func text(host: String, port: UInt16) -> String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Whether the API speaks TLS.
public enum HTTPTLSMode: String, Sendable, Hashable {
    /// Plain HTTP on a loopback address, TLS on any other.
    case auto
    /// TLS on every address.
    case on
}
