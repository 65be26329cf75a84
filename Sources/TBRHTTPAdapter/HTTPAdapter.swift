import FoundationEssentials
public import HTTPMessages
import HTTPAPIRouting
import MeshCoP
public import TBRCore
import TBRDocuments
public import TBRFoundation

/// The HTTPS API (docs/http-api.md) over tbrd's core: a request in, a response out, no server and no
/// state of its own but its clients' event streams. It maps and never decides: the route (APIRoute),
/// one authorization check of the token's scope against the route's, the JSON body into a core call,
/// the core's document back as JSON, the core's error as an RFC 9457 problem (``APIProblem``). No CORS
/// headers are ever sent, and a write whose Origin is not the server's own is refused.
///
/// Tested in memory (`HTTPAdapterTests`); tbrd binds ``answer(_:)`` and ``admits(_:)`` to its
/// libmicrohttpd server (HTTPServer) and runs ``run()`` (the core's events to the event streams) in its
/// service group.
public final class HTTPAdapter: Sendable {
    let core: Core
    let logger: Logger
    /// The clients' event streams (`GET /api/v1/events`).
    let events: APIEventHub
    /// The core's events, subscribed when the adapter is made (none is lost before ``run()`` takes them).
    let coreEvents: EventStream<CoreEvent>

    /// The adapter over `core`, logging what callers ask for (with the token's name, never a secret).
    /// Each client's stream holds at most `eventCapacity` events; the core's events wait for ``run()``
    /// up to 1,024 (more are dropped and counted).
    public init(core: Core, logger: Logger, eventCapacity: Int = 256) {
        self.core = core
        self.logger = logger
        self.events = APIEventHub(capacity: eventCapacity)
        self.coreEvents = core.lifecycle.events(bufferLimit: 1024)
    }

    /// How many clients hold an event stream open.
    public var eventClients: Int { events.count }

    /// Whether the head of a request shows a valid token (``HTTPServer/Admission``).
    public func admits(_ head: HTTPServerRequest) async -> Bool {
        await core.tokens.admits(head.headers["authorization"])
    }

    /// Answers one request.
    public func answer(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        if let page = WebPage.answer(request) { return page }
        let route: APIRoute
        switch APIRoute.match(method: request.method, path: request.path) {
        case .success(let found): route = found
        case .failure(.notFound): return Self.problem(APIProblem(.notFound, "there is no resource \(request.path.prefix(200))"))
        case .failure(.badPath(let why)): return Self.problem(APIProblem(.invalidArgument, why))
        case .failure(.methodNotAllowed(let allowed)):
            var response = Self.problem(APIProblem(.methodNotAllowed, "\(request.method.prefix(20)) is not allowed here"))
            response.headers["Allow"] = allowed.joined(separator: ", ")
            return response
        }
        // A request whose connection was not admitted (its token was revoked, or created, between its head
        // and now) had its body dropped: it is refused as one without a token.
        guard let principal = await core.tokens.authenticate(request.headers["authorization"], client: request.clientAddress), request.trusted
        else {
            var response = Self.problem(APIProblem(.unauthorized, "send a token: Authorization: Bearer TOKEN (tbrctl api token create)"))
            response.headers["WWW-Authenticate"] = #"Bearer realm="tbrd""#
            return response
        }
        // The route's scope against the token's: the one authorization check.
        guard principal.scope.allows(route.scope) else {
            return Self.problem(APIProblem(.forbidden, "a token of scope \(principal.scope.rawValue) may not do this (it needs \(route.scope.rawValue))"))
        }
        if route.isWrite, let origin = request.headers["origin"], !Self.isSameOrigin(origin, host: request.headers["host"]) {
            return Self.problem(APIProblem(.forbidden, "a write from another origin (\(origin.prefix(100))) is refused: no cross-origin access"))
        }
        do {
            // Through the core's call gate, as D-Bus calls: a stopping tbrd refuses new requests and lets these finish.
            return try await core.lifecycle.serving { try await self.serve(route, request, principal) }
        } catch {
            return Self.problem(APIProblem.from(error))
        }
    }

    /// Sends the core's events to the clients' streams until cancelled (tbrd's service group runs it).
    public func run() async {
        for await event in coreEvents {
            guard events.hasSubscribers, let encoded = Self.event(event) else { continue }
            events.publish(encoded)
        }
    }

    /// A core event as its SSE event: `epskc` (journalled: its sequence is the id), `router`, `policy`,
    /// `commissioning`, `recovery`, `problem`.
    static func event(_ event: CoreEvent) -> APIEventHub.Event? {
        switch event {
        case .epskc(let e): .encoding("epskc", e, sequence: Int64(clamping: e.sequence))
        case .router(let id, let online):
            .encoding("router", RouterEvent(router: id, online: online))
        case .policy(let view): .encoding("policy", view)
        case .commissioning(let report): .encoding("commissioning", report)
        case .recovery(let report): .encoding("recovery", report)
        case .problem(let change): .encoding("problem", ProblemEvent(event: change.opened ? "opened" : "closed", problem: change.problem))
        // Not events of the API's stream: a client reads the router or the structures again when it wants.
        case .routerChanged, .structuresChanged: nil
        }
    }

    /// The `problem` event: `{"event": "opened"|"closed", "problem": {…}}`.
    struct ProblemEvent: Encodable {
        var event: String
        var problem: HealthProblem
    }

    /// The `router` event: `{"router": ID, "online": BOOL}`.
    struct RouterEvent: Encodable {
        var router: String
        var online: Bool
    }

    /// A client's event stream, resuming after journal sequence `lastEventID` when given.
    func eventStream(lastEventID: String?) async throws -> HTTPServerResponse {
        var since: Int64?
        if let lastEventID {
            guard let n = Int64(lastEventID.filter { $0 != " " }), n >= 0 else {
                throw CoreError(.invalidArgument, "Last-Event-ID is a journal sequence number")
            }
            since = n
        }
        let (id, stream) = events.subscribe(holding: since != nil)
        if let since {
            var last = since
            for entry in try await core.routers.epskcJournal(since: since, limit: 10_000) {
                if let event = Self.event(.epskc(entry)) { events.send(event, to: id) }
                last = max(last, Int64(clamping: entry.sequence))
            }
            events.release(id, replayedThrough: last)
        }
        var headers = Self.securityHeaders
        headers["X-Accel-Buffering"] = "no"
        return HTTPServerResponse(status: 200, contentType: "text/event-stream", headers: headers, stream: stream)
    }
}
