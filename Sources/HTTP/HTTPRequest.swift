/// One HTTP request: a method, an absolute `http` or `https` URL, headers and a body.
public struct HTTPRequest: Sendable, Hashable {
    /// The method, upper case (`GET`, `PUT`, `POST`, `DELETE`).
    public var method: String
    /// The URL: `http://` or `https://`, a host, no user information (``HTTPURL``).
    public var url: HTTPURL
    /// Headers to send, as `(name, value)` pairs in order.
    public var headers: [(String, String)]
    /// The body, sent as is; nil for none.
    public var body: [UInt8]?

    /// A request as given.
    public init(_ method: String, _ url: HTTPURL, headers: [(String, String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.url == b.url && a.body == b.body && a.headers.elementsEqual(b.headers) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(body)
        for (name, value) in headers {
            hasher.combine(name)
            hasher.combine(value)
        }
    }
}

/// An HTTP response: its status, headers and body (at most the client's bound).
public struct HTTPResponse: Sendable, Hashable {
    /// The status code (200, 404, …).
    public var status: Int
    /// The `Content-Type` header, lower-cased, without parameters; nil when absent.
    public var contentType: String?
    /// Every header of the final response, by lower-case name, values trimmed; a header sent several
    /// times has its values joined with ", ".
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]

    /// A response as given.
    public init(status: Int, contentType: String? = nil, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text (invalid sequences replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }
}
