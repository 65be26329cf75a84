#if canImport(Glibc)
import Glibc
#endif

/// Where a simulated agent serves otbr-agent's REST API (`--rest [ADDR]:PORT`; the real agent's
/// `--rest-listen-address` and `--rest-listen-port`).
public struct RESTListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The real agent's default address: loopback only.
    public static let defaultHost = "127.0.0.1"

    /// A numeric IPv4 or IPv6 address (`::` for every address, IPv4 included), without brackets.
    public var host: String
    /// The TCP port; 0 takes a free one when the server first starts (and keeps it across restarts).
    public var port: UInt16

    /// An address as given; `host` must be a numeric IPv4 or IPv6 address.
    public init(host: String = Self.defaultHost, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Reads `ADDR:PORT`, `[IPV6]:PORT`, `:PORT` or `PORT` (address `127.0.0.1`); nil for anything else,
    /// an address that is not numeric included.
    public init?(argument: String) {
        var host = Self.defaultHost
        var portText = Substring(argument)
        if argument.hasPrefix("[") {
            guard let close = argument.firstIndex(of: "]"), argument[argument.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = String(argument[argument.index(after: argument.startIndex)..<close])
            guard Self.isNumeric(host, family: AF_INET6) else { return nil }
            portText = argument[argument.index(close, offsetBy: 2)...]
        } else if let colon = argument.lastIndex(of: ":") {
            let given = argument[..<colon]
            if !given.isEmpty {
                // An IPv6 address needs brackets, or its last group would read as the port.
                guard Self.isNumeric(String(given), family: AF_INET) else { return nil }
                host = String(given)
            }
            portText = argument[argument.index(after: colon)...]
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = UInt16(portText) else { return nil }
        self.init(host: host, port: port)
    }

    /// `127.0.0.1:8081`, `[::1]:8081`: the authority part of the API's URL.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    private static func isNumeric(_ host: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(family, host, &buffer) == 1
    }
}
