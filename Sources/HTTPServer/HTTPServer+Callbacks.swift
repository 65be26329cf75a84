internal import CMicroHTTPD
import Dispatch
import HTTPMessages
import TBRFoundation

#if canImport(Glibc)
import Glibc
#endif

/// Where a request is: its head, its body as it arrives, and what the server's tasks decided.
final class PendingRequest: Sendable {
    struct State {
        /// The connection showed a valid credential (this request or an earlier one on it).
        var trusted = false
        var admission = Admission.none
        var body: [UInt8] = []
        /// Bytes of body received, kept or not.
        var received = 0
        /// More than the bound arrived: the body is dropped and the answer is 413.
        var tooLarge = false
        /// The handler has the request: the connection is suspended until it answers.
        var handling = false
        /// The handler's answer, to queue once the connection is resumed.
        var answer: HTTPServerResponse?
    }

    /// Where the admission of the request's head is.
    enum Admission {
        /// None runs (the connection was trusted already, or there is nothing to admit with).
        case none
        /// It runs: the connection is suspended.
        case running
        /// It ended; libmicrohttpd calls the first call again once the connection is resumed.
        case ended
    }

    /// The connection's id in the server's table.
    let connection: UInt64
    let state: Locked<State>

    init(connection: UInt64, trusted: Bool) {
        self.connection = connection
        state = Locked(State(trusted: trusted))
    }
}

/// The id the connection got as it opened (kept as libmicrohttpd's socket context).
final class ConnectionRecord {
    let id: UInt64
    init(id: UInt64) { self.id = id }
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

/// Opens and closes connections in the table: a new one may displace the oldest stranger.
let notifyConnection: tbrd_mhd_notify_connection = { cls, connection, socketContext, code in
    guard let cls, let connection, let socketContext else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    if code.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
        let fd = tbrd_mhd_connection_fd(context.api.connectionInfo, connection)
        let (id, first) = context.table.withLock { table -> (UInt64, Bool) in
            let (id, evicted) = table.open(fd: fd, at: .now)
            if let evicted { _ = Glibc.shutdown(evicted, Int32(SHUT_RDWR)) }
            return (id, table.entries.count == 1)
        }
        socketContext.pointee = Unmanaged.passRetained(ConnectionRecord(id: id)).toOpaque()
        context.connectionOpened(first: first)
    } else if let raw = socketContext.pointee {
        let record = Unmanaged<ConnectionRecord>.fromOpaque(raw).takeRetainedValue()
        context.table.withLock { $0.close(record.id) }
        socketContext.pointee = nil
    }
}

private let accessHandler_: tbrd_mhd_access_handler = { cls, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let cls, let connection, let url, let method, let uploadSize, let requestContext else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let api = context.api
    let handle = ConnectionHandle(pointer: connection)
    // The first call for a request: its head is in. A connection not yet trusted is admitted (or not)
    // before its body is read, so that a stranger's body is never kept.
    guard let existing = requestContext.pointee else {
        guard let raw = tbrd_mhd_socket_context(api.connectionInfo, connection) else { return .NO }
        let id = Unmanaged<ConnectionRecord>.fromOpaque(raw).takeUnretainedValue().id
        let trusted = context.table.withLock { table -> Bool in
            table.enter(.awaitingBody, id, at: .now)
            return table.isTrusted(id)
        }
        let pending = PendingRequest(connection: id, trusted: trusted || context.admit == nil)
        requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
        if let admit = context.admit, !trusted {
            let head = requestHead(connection, url: url, method: method, api: api)
            // Set before the hand-off: the admission may end before handOff returns.
            pending.state.withLock { $0.admission = .running }
            let started = context.handOff(handle) {
                let admitted = await admit(head)
                if admitted { context.table.withLock { $0.trust(id) } }
                pending.state.withLock {
                    $0.trusted = admitted
                    $0.admission = .ended
                }
            }
            if !started { pending.state.withLock { $0.admission = .none } }
        }
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        let size = uploadSize.pointee
        pending.state.withLock { p in
            p.received += size
            if p.received > context.limits.bodyBytes {
                p.tooLarge = true
                p.body = []
            } else if p.trusted, let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { p.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size)) }
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    // The whole request is in (or the handler answered and the connection was resumed).
    enum Next { case answer(HTTPServerResponse), handle(body: [UInt8], trusted: Bool), wait }
    let next = pending.state.withLock { p -> Next in
        switch p.admission {
        case .running: return .wait
        case .ended:
            // The first call again, after the admission (libmicrohttpd calls it until it returns unsuspended).
            p.admission = .none
            return .wait
        case .none: break
        }
        if let answer = p.answer { return .answer(answer) }
        if p.handling { return .wait }
        if p.tooLarge { return .answer(HTTPServerResponse(status: 413)) }
        p.handling = true
        return .handle(body: p.body, trusted: p.trusted)
    }
    switch next {
    case .wait:
        return .YES
    case .answer(let response):
        return queue(response, on: connection, context)
    case .handle(let body, let trusted):
        let (headers, headerSize) = HeaderCollector.collect(connection, api: api)
        if headerSize > context.limits.headerBytes { return queue(HTTPServerResponse(status: 431), on: connection, context) }
        var head = requestHead(connection, url: url, method: method, api: api, headers: headers)
        head.body = body
        head.trusted = trusted
        let request = head
        context.table.withLock { $0.enter(.busy, pending.connection, at: .now) }
        let handler = context.handler
        let started = context.handOff(handle) {
            let answer = await handler(request)
            pending.state.withLock { $0.answer = answer }
        }
        return started ? .YES : queue(HTTPServerResponse(status: 503), on: connection, context)
    }
}

/// The request's method, path, query, headers and client address, without its body.
private func requestHead(
    _ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, api: LibMicroHTTPD.API,
    headers given: [String: String]? = nil
) -> HTTPServerRequest {
    let headers = given ?? HeaderCollector.collect(connection, api: api).headers
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
    return HTTPServerRequest(
        method: String(cString: method), path: String(parts.first ?? ""), query: query, contentType: contentType,
        accept: headers["accept"], headers: headers, body: [], clientAddress: client)
}

/// Queues `response` on `connection` (on the connection's thread): a stream's content comes from the
/// content reader, which parks the connection while nothing is queued.
private func queue(_ response: HTTPServerResponse, on connection: OpaquePointer, _ context: ServerContext) -> MHD_Result {
    let api = context.api
    let created: OpaquePointer?
    if let stream = response.stream {
        context.opened(stream)
        // A stream that starts while the server stops ends at once (after what is queued), never parks.
        if context.isStopping { stream.finish() }
        let handle = ConnectionHandle(pointer: connection)
        stream.attach(park: { api.suspend(handle.pointer) }, unpark: { api.resume(handle.pointer) })
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

/// A request is done (answered, or its connection closed): its context is released, and a connection
/// that stays open waits for its next head.
let completedHandler: tbrd_mhd_completed_handler = { cls, _, requestContext, _ in
    guard let cls, let requestContext, let raw = requestContext.pointee else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let pending = Unmanaged<PendingRequest>.fromOpaque(raw).takeRetainedValue()
    context.table.withLock { $0.enter(.awaitingHead, pending.connection, at: .now) }
    requestContext.pointee = nil
}

/// Fills libmicrohttpd's buffer from a stream; when nothing is queued the connection is parked (the
/// reader answers 0, libmicrohttpd calls again once it is resumed); the end of the stream ends the response.
private let contentReader: tbrd_mhd_content_reader = { cls, _, buffer, maximum in
    guard let cls, let buffer else { return -2 }
    let box = Unmanaged<StreamBox>.fromOpaque(cls).takeUnretainedValue()
    switch box.stream.take(maximum: maximum) {
    case .end: return -1
    case .parked: return 0
    case .bytes(let bytes):
        bytes.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress!, byteCount: raw.count)
        }
        return bytes.count
    }
}

/// libmicrohttpd is done with a streamed response (sent, or the client went away): the stream closes.
private let contentFree: tbrd_mhd_content_free = { cls in
    guard let cls else { return }
    let box = Unmanaged<StreamBox>.fromOpaque(cls).takeRetainedValue()
    box.context.closed(box.stream)
    box.stream.close()
}
