internal import CMicroHTTPD
import Dispatch
import Synchronization
public import HTTPMessages
import TBRFoundation

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server over GNU libmicrohttpd (opened with `dlopen`: ``LibMicroHTTPD``), for tbrd's API
/// and the simulators' REST APIs (otbr-sim `--rest`). Connections are served from an event loop
/// (libmicrohttpd's epoll mode, ``Limits/threads`` threads): a connection whose request is with the
/// async handler is suspended until the handler answers, and an event stream is suspended while it has
/// nothing to send, so thousands of open connections cost memory, not threads, and no thread ever waits
/// for a handler. Listens on one address and port (0: a free one, read back in ``port``), over TLS when
/// given an identity; ``stop()`` or ``shutdown()`` closes it.
///
/// Bounds (``Limits``): connections at once (more are refused), per client address, the header block
/// (431), the body (413), a deadline for each request's head and one for its body (however slowly it
/// trickles), and a budget for strangers: connections not yet admitted by ``Admission`` may hold only
/// so many, the oldest waiting one giving way to a new one (``ConnectionTable``).
///
/// Stopping waits for handlers that are still running: an owner whose handlers wait on it (an actor
/// serving its own state) stops the server with ``shutdown()``, which waits without holding the owner.
public final class HTTPServer: Sendable {
    /// The handler of every request.
    public typealias Handler = @Sendable (HTTPServerRequest) async -> HTTPServerResponse
    /// Decides from a request's head (its body not yet read, ``HTTPServerRequest/body`` empty) whether
    /// the connection shows a valid credential: an admitted connection is trusted for the rest of its
    /// life (its bodies are kept, it is never displaced as a stranger); a refused one still reaches the
    /// handler, with its body dropped (``HTTPServerRequest/trusted`` false). Without one, every
    /// connection is trusted.
    public typealias Admission = @Sendable (HTTPServerRequest) async -> Bool

    /// What a server accepts at most.
    public struct Limits: Sendable, Hashable {
        /// Connections open at once; more are closed as they come.
        public var connections: Int
        /// Connections open at once from one client address (0: no such bound); more from it are closed
        /// as they come, so that one host cannot take every connection.
        public var connectionsPerAddress: Int
        /// Connections open at once that were not admitted (``Admission``); past it, the oldest of them
        /// still waiting for its head or body is closed to make room.
        public var strangers: Int
        /// Bytes of request headers (names and values); more: 431.
        public var headerBytes: Int
        /// Bytes of a request body; more: 413.
        public var bodyBytes: Int
        /// How long a connection may take to send a request's whole head, from its opening or its last answer.
        public var headDeadline: Duration
        /// How long it may take to send a request's body, from its head.
        public var bodyDeadline: Duration
        /// Seconds a connection that is being answered may stay idle (nothing sent) before it is closed.
        public var idleTimeoutSeconds: Int
        /// Threads of the event loop.
        public var threads: Int

        /// Bounds as given; the defaults are tbrd's API's (docs/http-api.md, "Bounds and hostile clients").
        public init(
            connections: Int = 2048, connectionsPerAddress: Int = 128, strangers: Int = 1536, headerBytes: Int = 8 * 1024,
            bodyBytes: Int = 64 * 1024, headDeadline: Duration = .seconds(10), bodyDeadline: Duration = .seconds(30),
            idleTimeoutSeconds: Int = 30, threads: Int = 2
        ) {
            self.connections = connections
            self.connectionsPerAddress = connectionsPerAddress
            self.strangers = strangers
            self.headerBytes = headerBytes
            self.bodyBytes = bodyBytes
            self.headDeadline = headDeadline
            self.bodyDeadline = bodyDeadline
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.threads = threads
        }
    }

    /// A TLS identity: a private key and its certificate, both PEM.
    public struct TLSIdentity: Sendable, Hashable {
        public var privateKeyPEM: String
        public var certificatePEM: String
        /// An identity as given.
        public init(privateKeyPEM: String, certificatePEM: String) {
            self.privateKeyPEM = privateKeyPEM
            self.certificatePEM = certificatePEM
        }
        /// GnuTLS's priorities: its defaults, TLS 1.2 and 1.3 only.
        static let priorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"
    }

    /// libmicrohttpd's daemon, until stopped. Its calls are thread-safe (MHD_stop_daemon joins its threads).
    private struct Daemon: @unchecked Sendable { let pointer: OpaquePointer }
    private let daemon: Locked<Daemon?>
    private let context: Unmanaged<ServerContext>
    private let api: LibMicroHTTPD.API
    /// The port it listens on.
    public let port: UInt16
    /// The address it listens on, as given to ``start(host:port:headers:limits:tls:handler:)``.
    public let host: String
    /// Whether it speaks TLS.
    public let isTLS: Bool

    private init(daemon: OpaquePointer, context: Unmanaged<ServerContext>, api: LibMicroHTTPD.API, host: String, port: UInt16, isTLS: Bool) {
        self.daemon = Locked(Daemon(pointer: daemon))
        self.context = context
        self.api = api
        self.host = host
        self.port = port
        self.isTLS = isTLS
    }

    /// Listens on `host` (an IPv4 or IPv6 address; `::` for every address, IPv4 included) and `port`,
    /// and serves `handler` until ``stop()``.
    /// - Parameters:
    ///   - headers: added to every response, the server's own answers (413) included; a header of the
    ///     same name from the handler wins.
    ///   - limits: the bounds of connections and requests.
    ///   - tls: when given, the server speaks TLS 1.2 or 1.3 only, with this identity.
    ///   - admit: decides from each head whether a connection not yet trusted is (nil: all are).
    /// - Throws: ``HTTPServerError`` when libmicrohttpd cannot be loaded, the address cannot be bound or
    ///   the server does not start (a key or certificate GnuTLS refuses, say).
    public static func start(
        host: String, port: UInt16, headers: [String: String] = [:], limits: Limits = Limits(), tls: TLSIdentity? = nil,
        admit: Admission? = nil, handler: @escaping Handler
    ) throws(HTTPServerError) -> HTTPServer {
        let api = try LibMicroHTTPD.api.get()
        let (fd, bound) = try listen(host: host, port: port)
        let context = Unmanaged.passRetained(ServerContext(api: api, handler: handler, admit: admit, headers: headers, limits: limits))
        let raw = context.toOpaque()
        // The connection's pool holds the request line and headers with room to parse them; the header
        // bound itself is checked on the headers received.
        let memory = max(32 * 1024, limits.headerBytes * 4)
        let timeout = UInt32(limits.idleTimeoutSeconds), connections = UInt32(limits.connections)
        let perAddress = UInt32(limits.connectionsPerAddress), threads = UInt32(max(1, limits.threads))
        let started: OpaquePointer?
        if let tls {
            started = tls.privateKeyPEM.withCString { key in
                tls.certificatePEM.withCString { cert in
                    TLSIdentity.priorities.withCString { priorities in
                        tbrd_mhd_start(
                            api.startDaemon, fd, accessHandler, raw, completedHandler, raw, notifyConnection, raw, timeout, connections, perAddress,
                            memory, threads, key, cert, priorities)
                    }
                }
            }
        } else {
            started = tbrd_mhd_start(
                api.startDaemon, fd, accessHandler, raw, completedHandler, raw, notifyConnection, raw, timeout, connections, perAddress, memory,
                threads, nil, nil, nil)
        }
        guard let started else {
            close(fd)
            context.release()
            throw HTTPServerError("libmicrohttpd did not start on \(host) port \(bound)" + (tls == nil ? "" : " (is the TLS key or certificate refused?)"))
        }
        context.takeUnretainedValue().startSweep()
        return HTTPServer(daemon: started, context: context, api: api, host: host, port: bound, isTLS: tls != nil)
    }

    /// Stops serving: requests that arrive from now on are answered 503, the handlers still running
    /// finish and their answers go out, every stream ends; then the listening socket and every connection
    /// are closed. Blocks until then. Idempotent.
    public func stop() {
        guard let daemon = daemon.withLock({ d -> Daemon? in
            defer { d = nil }
            return d
        }) else { return }
        let context = self.context.takeUnretainedValue()
        // libmicrohttpd must not be stopped with a connection suspended: every handler resumes its own
        // as it answers, every stream resumes its own as it ends, and a stream that starts from now on
        // ends at once.
        context.closeStreams()
        context.drain()
        context.closeStreams()
        context.stopSweep()
        api.stopDaemon(daemon.pointer)
        self.context.release()
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
            try address.bind(fd, listening: 1024, v6Only: false)
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
