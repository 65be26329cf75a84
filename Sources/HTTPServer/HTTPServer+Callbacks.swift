internal import CMicroHTTPD
import Dispatch
import TBRFoundation

#if canImport(Glibc)
import Glibc
#endif

/// What libmicrohttpd's callbacks reach: the library, the handler, the headers of every response, the
/// bounds, and the streams still being sent (ended when the server stops).
final class ServerContext: Sendable {
    let api: LibMicroHTTPD.API
    let handler: HTTPServer.Handler
    let headers: [String: String]
    let limits: HTTPServer.Limits
    private let streams = Locked<[ObjectIdentifier: HTTPResponseStream]>([:])

    init(api: LibMicroHTTPD.API, handler: @escaping HTTPServer.Handler, headers: [String: String], limits: HTTPServer.Limits) {
        self.api = api
        self.handler = handler
        self.headers = headers
        self.limits = limits
    }

    func opened(_ stream: HTTPResponseStream) { streams.withLock { $0[ObjectIdentifier(stream)] = stream } }
    func closed(_ stream: HTTPResponseStream) { _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) } }

    /// Ends every stream still open, so that their connections' threads return.
    func closeStreams() {
        for stream in streams.withLock({ Array($0.values) }) { stream.finish() }
    }
}

/// The headers of one request, filled by libmicrohttpd's iterator on the connection's thread.
final class HeaderCollector {
    var headers: [String: String] = [:]
    /// The query's arguments as sent (``query(_:api:)``).
    var pairs: [String] = []
    /// Bytes of names and values received.
    var size = 0

    /// Every request header of `connection`, by lower-case name, and their size.
    static func collect(_ connection: OpaquePointer, api: LibMicroHTTPD.API) -> (headers: [String: String], size: Int) {
        let collector = HeaderCollector()
        let raw = Unmanaged.passUnretained(collector).toOpaque()
        _ = api.connectionValues(connection, .HEADER_KIND, { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let collector = Unmanaged<HeaderCollector>.fromOpaque(cls).takeUnretainedValue()
            let name = String(cString: key).lowercased(), text = value.map { String(cString: $0) } ?? ""
            collector.size += name.utf8.count + text.utf8.count + 4
            collector.headers[name] = collector.headers[name].map { $0 + ", " + text } ?? text
            return .YES
        }, raw)
        return withExtendedLifetime(collector) { (collector.headers, collector.size) }
    }

    /// The query of `connection`'s request, `name=value` pairs joined by `&` in the order sent.
    /// libmicrohttpd takes the query off the URL it hands over, and splits it into arguments; escapes
    /// are kept (`tbrd_mhd_keep_escapes`), so joining them again gives the query as it was sent.
    static func query(_ connection: OpaquePointer, api: LibMicroHTTPD.API) -> String {
        let collector = HeaderCollector()
        let raw = Unmanaged.passUnretained(collector).toOpaque()
        _ = api.connectionValues(connection, .GET_ARGUMENT_KIND, { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let collector = Unmanaged<HeaderCollector>.fromOpaque(cls).takeUnretainedValue()
            let pair = String(cString: key) + (value.map { "=" + String(cString: $0) } ?? "")
            collector.size += pair.utf8.count + 1
            collector.pairs.append(pair)
            return .YES
        }, raw)
        return withExtendedLifetime(collector) { collector.pairs.joined(separator: "&") }
    }
}

/// One request's body as it arrives (libmicrohttpd's per-request context).
final class PendingRequest {
    var body: [UInt8] = []
    /// More than the bound arrived: the body is dropped and the answer is 413.
    var tooLarge = false
}

/// A response handed from the handler's task to the connection's thread, which blocks on it: in
/// libmicrohttpd's thread-per-connection mode blocking in the callback is its flow control (suspend and
/// resume are not available there). It is a thread waiting, not a task, so it is not a ``ReplySlots``;
/// moving the server to one polling thread with suspend and resume would end it.
/// The response is kept under a ``Locked`` (which ThreadSanitizer can order; a semaphore it cannot see).
final class ResponseSlot: Sendable {
    let response = Locked<HTTPServerResponse?>(nil)
    let done = DispatchSemaphore(value: 0)
}

/// A stream and the server it belongs to, for the content reader.
final class StreamBox {
    let stream: HTTPResponseStream
    let context: ServerContext
    init(stream: HTTPResponseStream, context: ServerContext) {
        self.stream = stream
        self.context = context
    }
}

private let accessHandler_: tbrd_mhd_access_handler = { cls, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let cls, let connection, let url, let method, let uploadSize, let requestContext else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    // The first call for a request only creates its context.
    guard let existing = requestContext.pointee else {
        requestContext.pointee = Unmanaged.passRetained(PendingRequest()).toOpaque()
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if !pending.tooLarge, let uploadData, pending.body.count + uploadSize.pointee <= context.limits.bodyBytes {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
            }
        } else {
            pending.tooLarge = true
            pending.body = []
        }
        uploadSize.pointee = 0
        return .YES
    }
    // The whole request is in: answer it, waiting on this connection's own thread for the handler.
    let api = context.api
    let (headers, headerSize) = HeaderCollector.collect(connection, api: api)
    let response: HTTPServerResponse
    if pending.tooLarge {
        response = HTTPServerResponse(status: 413)
    } else if headerSize > context.limits.headerBytes {
        response = HTTPServerResponse(status: 431)
    } else {
        let contentType = headers["content-type"]?.split(separator: ";").first.map { String($0).lowercased().filter { $0 != " " } }
        let target = String(cString: url)
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        // libmicrohttpd gives the path without the query; the query is read back from its arguments.
        let query = parts.count > 1 ? String(parts[1]) : HeaderCollector.query(connection, api: api)
        var client = ""
        if let address = tbrd_mhd_client_address(api.connectionInfo, connection) {
            let length = socklen_t(address.pointee.sa_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
            client = SocketAddress(address, length: length).endpoint.host
        }
        let request = HTTPServerRequest(
            method: String(cString: method), path: String(parts.first ?? ""), query: query, contentType: contentType,
            accept: headers["accept"], headers: headers, body: pending.body, clientAddress: client)
        let handler = context.handler
        let slot = ResponseSlot()
        Task {
            let answer = await handler(request)
            slot.response.withLock { $0 = answer }
            slot.done.signal()
        }
        slot.done.wait()
        response = slot.response.withLock { $0 } ?? HTTPServerResponse(status: 500)
    }
    let created: OpaquePointer?
    if let stream = response.stream {
        context.opened(stream)
        let box = Unmanaged.passRetained(StreamBox(stream: stream, context: context)).toOpaque()
        created = api.responseFromCallback(UInt64.max, 4096, contentReader, box, contentFree)
        if created == nil { contentFree(box) }
    } else {
        created = response.body.withUnsafeBytes { bytes in
            api.responseFromBuffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
    }
    guard let created else { return .NO }
    defer { api.destroyResponse(created) }
    if let type = response.contentType { _ = api.addHeader(created, "Content-Type", type) }
    for (name, value) in context.headers.merging(response.headers, uniquingKeysWith: { _, handlers in handlers }) {
        _ = api.addHeader(created, name, value)
    }
    return api.queueResponse(connection, UInt32(response.status), created)
}

/// The access handler libmicrohttpd calls for each step of a request.
let accessHandler: tbrd_mhd_access_handler = accessHandler_

/// Releases a request's context when libmicrohttpd is done with it.
let completedHandler: tbrd_mhd_completed_handler = { _, _, requestContext, _ in
    guard let requestContext, let pending = requestContext.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(pending).release()
    requestContext.pointee = nil
}

/// Fills libmicrohttpd's buffer from a stream, blocking the connection's thread until there is
/// something (or a heartbeat is due); the end of the stream ends the response.
private let contentReader: tbrd_mhd_content_reader = { cls, _, buffer, maximum in
    guard let cls, let buffer else { return -2 }
    let box = Unmanaged<StreamBox>.fromOpaque(cls).takeUnretainedValue()
    guard let bytes = box.stream.pull(maximum: maximum) else { return -1 }
    bytes.withUnsafeBytes { raw in
        UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress!, byteCount: raw.count)
    }
    return bytes.count
}

/// libmicrohttpd is done with a streamed response (sent, or the client went away): the stream closes.
private let contentFree: tbrd_mhd_content_free = { cls in
    guard let cls else { return }
    let box = Unmanaged<StreamBox>.fromOpaque(cls).takeRetainedValue()
    box.context.closed(box.stream)
    box.stream.close()
}
