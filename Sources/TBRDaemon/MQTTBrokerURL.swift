/// The broker of `mqtt-url`: `mqtt://HOST[:PORT]` (1883) or `mqtts://HOST[:PORT]` (8883, TLS); the host a
/// name, an IPv4 address or a bracketed IPv6 one. No user or password in it: those are `mqtt-username`
/// and `mqtt-password-file`, so the password is never in a file others may read.
public struct MQTTBrokerURL: Sendable, Hashable, CustomStringConvertible {
    /// The host, without brackets.
    public let host: String
    public let port: Int
    /// Whether it is `mqtts://`.
    public let tls: Bool

    /// Reads `mqtt://broker.lan:1883`, `mqtts://[fd00::1]`.
    /// - Throws: ``ConfigurationError`` saying what is wrong.
    public init(_ text: String) throws(ConfigurationError) {
        let rest: Substring
        if text.hasPrefix("mqtt://") {
            tls = false
            rest = text.dropFirst("mqtt://".count)
        } else if text.hasPrefix("mqtts://") {
            tls = true
            rest = text.dropFirst("mqtts://".count)
        } else {
            throw ConfigurationError("expected mqtt://HOST:PORT or mqtts://HOST:PORT, not '\(text)'")
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !authority.contains("@") else {
            throw ConfigurationError("no user or password in the URL: set mqtt-username and mqtt-password-file")
        }
        guard !authority.contains("/"), !authority.contains("?") else { throw ConfigurationError("a broker's URL has no path: '\(text)'") }
        var host: Substring, portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw ConfigurationError("an IPv6 address goes in brackets: '\(text)'") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw ConfigurationError("expected :PORT after the address in '\(text)'") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty, host.count <= 253, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:_".contains($0)) }) else {
            throw ConfigurationError("'\(host)' is not a host name or address")
        }
        if let portText {
            guard let port = Int(portText), (1...65535).contains(port) else { throw ConfigurationError("'\(portText)' is not a port (1-65535)") }
            self.port = port
        } else {
            port = tls ? 8883 : 1883
        }
        self.host = String(host)
    }

    public var description: String { (tls ? "mqtts://" : "mqtt://") + (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
}
