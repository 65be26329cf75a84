import FoundationEssentials

/// An absolute `http` or `https` URL with a host and no user information: the only URLs tbrd sends
/// requests to. Its ``description`` is the URL as given, normalised (no trailing slash on the root).
public struct HTTPURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host: a name, an IPv4 address, or an IPv6 address (without brackets).
    public let host: String
    /// The port, nil for the scheme's default.
    public let port: Int?
    /// The path, starting with `/` (`/` for none).
    public let path: String

    /// Reads `text`.
    /// - Throws: ``HTTPURLError`` saying what is wrong: not a URL, another scheme, no host, user
    ///   information, a query or fragment.
    public init(_ text: String) throws(HTTPURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw HTTPURLError("\(text.debugDescription) is not a URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw HTTPURLError("\(text.debugDescription) is not an http or https URL (its scheme is \(scheme))")
        }
        guard components.user == nil, components.password == nil else {
            throw HTTPURLError("\(text.debugDescription) carries user information; tbrd takes none")
        }
        guard var host = components.host, !host.isEmpty else { throw HTTPURLError("\(text.debugDescription) has no host") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard components.query == nil, components.fragment == nil else {
            throw HTTPURLError("\(text.debugDescription) has a query or a fragment; give the API's base URL")
        }
        if let port = components.port, !(1...65535).contains(port) { throw HTTPURLError("\(text.debugDescription) has port \(port)") }
        self.scheme = scheme
        self.host = host
        self.port = components.port
        let path = components.percentEncodedPath
        self.path = path.isEmpty ? "/" : path
    }

    private init(scheme: String, host: String, port: Int?, path: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
    }

    /// This URL with `path` (absolute, starting with `/`) appended to its own path.
    public func appending(_ path: String) -> HTTPURL {
        let base = self.path.hasSuffix("/") ? String(self.path.dropLast()) : self.path
        return HTTPURL(scheme: scheme, host: host, port: port, path: base + path)
    }

    /// The URL as text.
    public var description: String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        let portText = port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(hostText)\(portText)\(path == "/" ? "" : path)"
    }
}

/// Why a text is not a URL tbrd sends requests to.
public struct HTTPURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
