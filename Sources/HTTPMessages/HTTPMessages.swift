// An HTTP request and response as values, with no server: what a handler takes and gives. The HTTP
// adapter (TBRHTTPAdapter) is a function between them, tested in memory; HTTPServer binds it to
// libmicrohttpd.

/// A request as the server received it: method, path and query, its headers, the whole body and the
/// client's address.
public struct HTTPServerRequest: Sendable, Hashable {
    /// `GET`, `PUT`, `POST`, `DELETE`, …
    public var method: String
    /// The path, e.g. `/node/state`, as sent: percent-escapes are kept for the handler to decode.
    public var path: String
    /// The query after `?`, as sent; empty when there is none.
    public var query: String
    /// `Content-Type`, lower case, without parameters; nil when absent.
    public var contentType: String?
    /// `Accept`, as sent; nil when absent.
    public var accept: String?
    /// Every header as sent, by lower-case name; a header sent several times has its values joined
    /// with ", " (RFC 9110 §5.3).
    public var headers: [String: String] = [:]
    /// The body.
    public var body: [UInt8]
    /// The client's IP address, numeric (`127.0.0.1`, `::1`); empty when unknown.
    public var clientAddress: String
    /// Whether the connection was admitted (``HTTPServer/Admission``) before its body was read. A body
    /// sent on a connection that was not is never kept: ``body`` is then empty.
    public var trusted: Bool = true

    /// A request as given (the server makes them; tests and the fuzz target too).
    public init(
        method: String, path: String, query: String = "", contentType: String? = nil, accept: String? = nil,
        headers: [String: String] = [:], body: [UInt8] = [], clientAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.contentType = contentType
        self.accept = accept
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }
}

/// A response to send: a status, a content type, more headers and a body, or a body written while it
/// is sent (``stream``).
public struct HTTPServerResponse: Sendable {
    public var status: Int
    public var contentType: String?
    /// Headers besides `Content-Type`, `Content-Length` and `Date` (which the server writes).
    public var headers: [String: String]
    public var body: [UInt8]
    /// When set, the body comes from this stream instead of ``body``, with no `Content-Length`.
    public var stream: HTTPResponseStream?

    /// A response as given.
    public init(status: Int, contentType: String? = nil, headers: [String: String] = [:], body: [UInt8] = [], stream: HTTPResponseStream? = nil) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
        self.stream = stream
    }
}
