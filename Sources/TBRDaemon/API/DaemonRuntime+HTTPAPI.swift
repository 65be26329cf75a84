import HTTPAPIRouting
import DBus
import DeviceModel
import FoundationEssentials
import HTTPMessages
import HTTPServer
import MeshCoP
import Store
import TBRDBusAPI
import TBRDocuments
import TBRFoundation

// The HTTP adapter over tbrd's core (docs/http-api.md): routes (APIRoute), one authorization decision
// per request (APIRoute.scope against the token's scope), the shared documents as JSON, errors as RFC 9457
// problems mapped once (APIProblem.from). No CORS headers are ever sent, and a write whose Origin is
// not the server's own is refused.

extension DaemonRuntime {
    /// Answers one request of the HTTPS API.
    nonisolated func answerAPI(_ request: HTTPServerRequest) async -> HTTPServerResponse {
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
        guard let principal = await authenticator.authenticate(request.headers["authorization"], client: request.clientAddress),
            request.trusted
        else {
            var response = Self.problem(APIProblem(.unauthorized, "send a token: Authorization: Bearer TOKEN (tbrctl api token create)"))
            response.headers["WWW-Authenticate"] = #"Bearer realm="tbrd""#
            return response
        }
        // The one authorization decision.
        guard principal.scope.allows(route.scope) else {
            return Self.problem(APIProblem(.forbidden, "a token of scope \(principal.scope.rawValue) may not do this (it needs \(route.scope.rawValue))"))
        }
        if route.isWrite, let origin = request.headers["origin"], !Self.isSameOrigin(origin, host: request.headers["host"]) {
            return Self.problem(APIProblem(.forbidden, "a write from another origin (\(origin.prefix(100))) is refused: no cross-origin access"))
        }
        do {
            // Through the call gate, as D-Bus calls: a stopping tbrd refuses new requests and lets these finish.
            return try await serving { try await self.serve(route, request, principal) }
        } catch {
            return Self.problem(APIProblem.from(error))
        }
    }

    private func serve(_ route: APIRoute, _ request: HTTPServerRequest, _ principal: APIPrincipal) async throws -> HTTPServerResponse {
        switch route {
        case .routers: return try Self.json(await routerListings())
        case .router(let text): return try Self.json(await routerInfo(try await resolve(text)))
        case .activateEpskc(let text):
            let body = try Self.decode(EpskcRequest.self, request)
            let id = try await resolve(text)
            logger.info("API: ePSKc requested", [("router", id.rawValue), ("token", principal.tokenName)])
            return try Self.json(await epskcActivation(id, seconds: body.durationSeconds))
        case .deactivateEpskc(let text):
            let id = try await resolve(text)
            logger.info("API: ePSKc stopped", [("router", id.rawValue), ("token", principal.tokenName)])
            try await epskcDeactivation(id)
            return HTTPServerResponse(status: 204, headers: Self.securityHeaders)
        case .mesh(let text): return try Self.json(await meshView(try await resolve(text)))
        case .meshPicture(let text):
            return HTTPServerResponse(status: 200, contentType: "image/svg+xml", headers: Self.securityHeaders, body: try await meshPicture(try await resolve(text)))
        case .doctor(let text): return try Self.json(await doctorReport(text))
        case .dataset(let text):
            let flags = try Self.flags(request.query, allowed: ["pending", "revealSecrets"])
            let id = try await resolve(text)
            let dataset = try await operationalDataset(id, pending: flags.contains("pending"))
            if flags.contains("revealSecrets") {
                logger.info("API: a dataset was read with its secrets", [("router", id.rawValue), ("token", principal.tokenName)])
            }
            return try Self.json(dataset, revealSecrets: flags.contains("revealSecrets"))
        case .join(let text):
            let body = try Self.decode(JoinRequest.self, request)
            let id = try await resolve(text)
            logger.info("API: join requested", [("router", id.rawValue), ("token", principal.tokenName)])
            return try Self.json(await join(id, datasetHex: body.dataset, thisRouterOnly: body.thisRouterOnly ?? false))
        case .leave(let text):
            let id = try await resolve(text)
            logger.info("API: leave requested", [("router", id.rawValue), ("token", principal.tokenName)])
            try await leaveNetwork(id)
            return try Self.json(["router": id.rawValue, "status": "success"])
        case .structures: return try Self.json(await structureViews())
        case .createStructure:
            let body = try Self.decode(StructureRequest.self, request)
            logger.info("API: structure created", [("structure", body.name), ("token", principal.tokenName)])
            return try Self.json(await createdStructure(body.name), status: 201)
        case .structure(let name): return try Self.json(await structureView(try await structure(named: name)))
        case .deleteStructure(let name):
            try await deleteStructure(name)
            logger.info("API: structure deleted", [("structure", name), ("token", principal.tokenName)])
            return try Self.json(["deleted": name])
        case .addRouter(let name, let router): return try Self.json(await structureAfter(name, router: router, add: true))
        case .removeRouter(let name, let router): return try Self.json(await structureAfter(name, router: router, add: false))
        case .rooms(let name): return try Self.json(await rooms(name))
        case .addRoom(let name, let room): return try Self.json(await rooms(name, adding: room))
        case .removeRoom(let name, let room): return try Self.json(await rooms(name, removing: room))
        case .networks(let name): return try Self.json(await networkEntries(name))
        case .nodes(let name): return try Self.json(await matterNodeViews(name))
        case .commission(let name):
            let body = try Self.decode(CommissionRequest.self, request)
            let started = try await startCommissioning(name, body)
            logger.info(
                "API: commissioning started", [("structure", started.structure), ("codes", String(body.codes.count)), ("token", principal.tokenName)])
            return try Self.json(started, status: 202)
        case .cancelCommissioning(let name, let session):
            let info = try await structure(named: name)
            try await cancelCommissioning(info.id, session: session)
            logger.info("API: commissioning cancelled", [("structure", info.name), ("session", session), ("token", principal.tokenName)])
            return HTTPServerResponse(status: 204, headers: Self.securityHeaders)
        case .policy(let name): return try Self.json(await policyView(name))
        case .setPolicy(let name):
            let body = try Self.decode(PolicyRequest.self, request)
            logger.info("API: policy set", [("structure", name), ("option", body.internetAccessOption), ("token", principal.tokenName)])
            return try Self.json(await setPolicy(name, option: body.internetAccessOption))
        case .events: return try await eventStream(lastEventID: request.headers["last-event-id"])
        case .openAPI:
            return HTTPServerResponse(status: 200, contentType: "application/json", headers: Self.securityHeaders, body: Array(OpenAPIDocument.text.utf8))
        }
    }

    /// A client's event stream, resuming after journal sequence `lastEventID` when given.
    private func eventStream(lastEventID: String?) async throws -> HTTPServerResponse {
        var since: Int64?
        if let lastEventID {
            guard let n = Int64(lastEventID.filter { $0 != " " }), n >= 0 else {
                throw DaemonError.invalid("Last-Event-ID is a journal sequence number")
            }
            since = n
        }
        let (id, stream) = apiEvents.subscribe(holding: since != nil)
        if let since {
            var last = since
            for entry in try await store.epskcEvents(since: since, router: nil, limit: 10_000) {
                if let event = Self.journalEvent(entry) { apiEvents.send(event, to: id) }
                last = max(last, entry.sequence)
            }
            apiEvents.release(id, replayedThrough: last)
        }
        var headers = Self.securityHeaders
        headers["X-Accel-Buffering"] = "no"
        return HTTPServerResponse(status: 200, contentType: "text/event-stream", headers: headers, stream: stream)
    }

    /// A journal entry as the `epskc` event (`tbrctl --json epskc watch`'s shape), its sequence the id.
    static func journalEvent(_ e: EpskcJournalEntry) -> APIEventHub.Event? {
        let deactivated = e.kind == .deactivated
        let event = EpskcWatchEvent(
            event: deactivated ? .epskcModeDeactivated : .epskcModeActivated, sequence: UInt64(e.sequence), router: e.router.rawValue,
            reason: deactivated ? (e.reason ?? "unspecified") : nil, detail: e.detail,
            activatedAt: WallTime(secondsSinceEpoch: e.activatedAt), deactivatedAt: e.deactivatedAt.map { WallTime(secondsSinceEpoch: $0) },
            validSeconds: e.validSeconds)
        return .encoding("epskc", event, sequence: e.sequence)
    }

    // MARK: the wire

    /// Sent with every answer: nothing cached, no sniffing, no framing, no scripts in JSON.
    static let securityHeaders = [
        "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
        "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'", "Referrer-Policy": "no-referrer",
    ]

    /// Members sorted by name, as `tbrctl --json` prints them.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    /// `value` as JSON; secrets (network key, PSKc) redacted unless `revealSecrets` (MeshCoP's `Secrets`).
    static func json<T: Encodable>(_ value: T, status: Int = 200, revealSecrets: Bool = false) throws -> HTTPServerResponse {
        let encoder = encoder()
        encoder.userInfo[.revealSecrets] = revealSecrets
        return HTTPServerResponse(status: status, contentType: "application/json", headers: securityHeaders, body: Array(try encoder.encode(value)))
    }

    /// The flags a query sets (`pending=true&revealSecrets=true`): each `NAME=true`, `NAME=false` or a
    /// bare `NAME`; anything else is refused rather than ignored.
    static func flags(_ query: String, allowed: Set<String>) throws -> Set<String> {
        var set: Set<String> = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = parts.first, allowed.contains(name), parts.count == 1 || parts[1] == "true" || parts[1] == "false" else {
                throw DaemonError.invalid(
                    "the query \(Quoted(String(pair.prefix(100)))) is not understood here (known: \(allowed.sorted().map { $0 + "=true" }.joined(separator: ", ")))")
            }
            if parts.count == 1 || parts[1] == "true" { set.insert(name) }
        }
        return set
    }

    static func problem(_ problem: APIProblem) -> HTTPServerResponse {
        let body = (try? encoder().encode(problem)).map(Array.init) ?? []
        return HTTPServerResponse(status: problem.status, contentType: "application/problem+json", headers: securityHeaders, body: body)
    }

    /// The JSON body of `request` as `T`, or InvalidArgument saying why.
    static func decode<T: APIRequestBody>(_: T.Type, _ request: HTTPServerRequest) throws -> T {
        guard request.contentType == "application/json" else { throw DaemonError.invalid("the body must be JSON (Content-Type: application/json)") }
        do { return try T.decode(request.body) } catch { throw DaemonError.invalid(error.description) }
    }

    /// Whether `origin` (`https://host:port`) is the server's own, as the `Host` header names it.
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        return origin == "https://" + host || origin == "http://" + host
    }
}
