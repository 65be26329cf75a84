internal import CMicroHTTPD
import Dispatch
import TBRFoundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A request as the server received it: method, path (without the query), its headers and the whole
/// body.
public struct HTTPServerRequest: Sendable, Hashable {
    /// `GET`, `PUT`, `POST`, `DELETE`, …
    public var method: String
    /// The path, e.g. `/node/state`.
    public var path: String
    /// `Content-Type`, lower case, without parameters; nil when absent.
    public var contentType: String?
    /// `Accept`, as sent; nil when absent.
    public var accept: String?
    /// Every header as sent, by lower-case name; a header sent several times has its values joined
    /// with ", " (RFC 9110 §5.3).
    public var headers: [String: String] = [:]
    /// The body.
    public var body: [UInt8]
}

/// A response to send: a status, a content type, more headers and a body.
public struct HTTPServerResponse: Sendable, Hashable {
    public var status: Int
    public var contentType: String?
    /// Headers besides `Content-Type`, `Content-Length` and `Date` (which the server writes).
    public var headers: [String: String]
    public var body: [UInt8]

    /// A response as given.
    public init(status: Int, contentType: String? = nil, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }
}

/// An HTTP/1.1 server over GNU libmicrohttpd, for the simulators' REST APIs (otbr-sim `--rest`): one
/// thread per connection (libmicrohttpd's), each request handed whole to an async handler, whose answer
/// the connection's thread waits for (never a thread of Swift's cooperative pool). Listens on one
/// address and port (0: a free one, read back in ``port``); ``stop()`` or ``shutdown()`` closes it.
///
/// Stopping waits for the connections' threads, and so for handlers that are still running: an owner
/// whose handlers wait on it (an actor serving its own state) stops the server with ``shutdown()``,
/// which waits without holding the owner.
public final class HTTPServer: Sendable {
    /// The handler of every request.
    public typealias Handler = @Sendable (HTTPServerRequest) async -> HTTPServerResponse

    /// libmicrohttpd's daemon, until stopped. Its calls are thread-safe (MHD_stop_daemon joins its threads).
    private struct Daemon: @unchecked Sendable { let pointer: OpaquePointer }
    private let daemon: Locked<Daemon?>
    private let context: Unmanaged<ServerContext>
    /// The port it listens on.
    public let port: UInt16
    /// The address it listens on, as given to ``start(host:port:headers:handler:)``.
    public let host: String

    private init(daemon: OpaquePointer, context: Unmanaged<ServerContext>, host: String, port: UInt16) {
        self.daemon = Locked(Daemon(pointer: daemon))
        self.context = context
        self.host = host
        self.port = port
    }

    /// Listens on `host` (an IPv4 or IPv6 address; `::` for every address, IPv4 included) and `port`,
    /// and serves `handler` until ``stop()``.
    /// - Parameter headers: added to every response, the server's own answers (413) included; a header
    ///   of the same name from the handler wins.
    /// - Throws: ``HTTPServerError`` when the address cannot be bound or libmicrohttpd does not start.
    public static func start(
        host: String, port: UInt16, headers: [String: String] = [:], handler: @escaping Handler
    ) throws(HTTPServerError) -> HTTPServer {
        let (fd, bound) = try listen(host: host, port: port)
        let context = Unmanaged.passRetained(ServerContext(handler: handler, headers: headers))
        let raw = context.toOpaque()
        guard let daemon = tbrd_mhd_start(fd, accessHandler, raw, completedHandler, raw, 30) else {
            close(fd)
            context.release()
            throw HTTPServerError("libmicrohttpd did not start on \(host) port \(bound)")
        }
        return HTTPServer(daemon: daemon, context: context, host: host, port: bound)
    }

    /// Stops serving: closes the listening socket and waits for the connections' threads. Idempotent.
    public func stop() {
        guard let daemon = daemon.withLock({ d -> Daemon? in
            defer { d = nil }
            return d
        }) else { return }
        MHD_stop_daemon(daemon.pointer)
        context.release()
    }

    /// ``stop()`` on a thread of its own: returns when the server is stopped, without blocking the
    /// caller's thread meanwhile, so that running handlers may still reach the caller.
    public func shutdown() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "tbrd.http.server.stop").async {
                self.stop()
                done.resume()
            }
        }
    }

    deinit { stop() }

    /// A listening socket on `host` and `port`, and the port it got.
    private static func listen(host: String, port: UInt16) throws(HTTPServerError) -> (Int32, UInt16) {
        guard let address = try? SocketAddress.resolve(host: host, port: port, .stream, [.numericHost, .passive]).first else {
            throw HTTPServerError("\(host) is not an IPv4 or IPv6 address")
        }
        let fd: Int32
        do { fd = try address.openSocket(.stream) } catch { throw HTTPServerError("cannot open a socket: \(error)") }
        do {
            // `::` takes IPv4 connections too, as otbr-agent's REST server does (`set_ipv6_v6only(false)`).
            try address.bind(fd, listening: 64, v6Only: false)
        } catch {
            close(fd)
            throw HTTPServerError("cannot listen on \(host) port \(port): \(error)")
        }
        return (fd, SocketAddress.local(of: fd)?.port ?? port)
    }
}

/// Why the server did not start.
public struct HTTPServerError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What libmicrohttpd's callbacks reach: the handler and the headers of every response.
final class ServerContext: Sendable {
    let handler: HTTPServer.Handler
    let headers: [String: String]
    init(handler: @escaping HTTPServer.Handler, headers: [String: String]) {
        self.handler = handler
        self.headers = headers
    }
}

/// The headers of one request, filled by libmicrohttpd's iterator on the connection's thread.
final class HeaderCollector {
    var headers: [String: String] = [:]

    /// Every request header of `connection`, by lower-case name.
    static func collect(_ connection: OpaquePointer) -> [String: String] {
        let collector = HeaderCollector()
        let raw = Unmanaged.passUnretained(collector).toOpaque()
        _ = MHD_get_connection_values(connection, .HEADER_KIND, { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let collector = Unmanaged<HeaderCollector>.fromOpaque(cls).takeUnretainedValue()
            let name = String(cString: key).lowercased(), text = value.map { String(cString: $0) } ?? ""
            collector.headers[name] = collector.headers[name].map { $0 + ", " + text } ?? text
            return .YES
        }, raw)
        return withExtendedLifetime(collector) { collector.headers }
    }
}

/// One request's body as it arrives (libmicrohttpd's per-request context).
final class PendingRequest {
    var body: [UInt8] = []
    /// Bodies above this are answered 413 (the simulators' APIs take small JSON or hex).
    static let maximumBody = 64 * 1024
}

/// A response handed from the handler's task to the connection's thread, which blocks on it: in
/// libmicrohttpd's thread-per-connection mode blocking in the callback is its flow control (suspend and
/// resume are not available there). It is a thread waiting, not a task, so it is not a ``ReplySlots``;
/// moving the server to one polling thread with suspend and resume would end it.
final class ResponseSlot: @unchecked Sendable {
    var response: HTTPServerResponse?
    let done = DispatchSemaphore(value: 0)
}

private let accessHandler: tbrd_mhd_access_handler = { cls, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let cls, let connection, let url, let method, let uploadSize, let requestContext else { return .NO }
    // The first call for a request only creates its context.
    guard let existing = requestContext.pointee else {
        requestContext.pointee = Unmanaged.passRetained(PendingRequest()).toOpaque()
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if let uploadData, pending.body.count + uploadSize.pointee <= PendingRequest.maximumBody {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
            }
        } else {
            pending.body = Array(repeating: 0, count: PendingRequest.maximumBody + 1)
        }
        uploadSize.pointee = 0
        return .YES
    }
    // The whole request is in: answer it, waiting on this connection's own thread for the handler.
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let response: HTTPServerResponse
    if pending.body.count > PendingRequest.maximumBody {
        response = HTTPServerResponse(status: 413)
    } else {
        func header(_ name: String) -> String? { MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) } }
        let contentType = header("Content-Type")?.split(separator: ";").first.map { String($0).lowercased().filter { $0 != " " } }
        let request = HTTPServerRequest(
            method: String(cString: method), path: String(String(cString: url).split(separator: "?", maxSplits: 1).first ?? ""),
            contentType: contentType, accept: header("Accept"), headers: HeaderCollector.collect(connection), body: pending.body)
        let handler = context.handler
        let slot = ResponseSlot()
        Task {
            slot.response = await handler(request)
            slot.done.signal()
        }
        slot.done.wait()
        response = slot.response ?? HTTPServerResponse(status: 500)
    }
    let created = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let created else { return .NO }
    defer { MHD_destroy_response(created) }
    if let type = response.contentType { MHD_add_response_header(created, "Content-Type", type) }
    for (name, value) in context.headers.merging(response.headers, uniquingKeysWith: { _, handlers in handlers }) {
        MHD_add_response_header(created, name, value)
    }
    return MHD_queue_response(connection, UInt32(response.status), created)
}

private let completedHandler: tbrd_mhd_completed_handler = { _, _, requestContext, _ in
    guard let requestContext, let pending = requestContext.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(pending).release()
    requestContext.pointee = nil
}
