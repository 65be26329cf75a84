import FoundationEssentials
import HTTPAPIRouting
import HTTPMessages
import MeshCoP
import TBRCore
import TBRDocuments
import TBRFoundation

// Each route as one core call: its body decoded, the core's answer encoded. Nothing here decides.

extension HTTPAdapter {
    func serve(_ route: APIRoute, _ request: HTTPServerRequest, _ principal: APIPrincipal) async throws -> HTTPServerResponse {
        let token = ("token", principal.tokenName)
        switch route {
        case .routers: return try Self.json(await core.routers.routerListings())
        case .router(let text): return try Self.json(await core.routers.routerInfo(text))
        case .activateEpskc(let text):
            let body = try Self.decode(EpskcRequest.self, request)
            let (id, activation) = try await core.routers.activateEpskc(text, seconds: body.durationSeconds)
            logger.info("API: ePSKc requested", [("router", id), token])
            return try Self.json(activation)
        case .deactivateEpskc(let text):
            let id = try await core.routers.deactivateEpskc(text)
            logger.info("API: ePSKc stopped", [("router", id), token])
            return HTTPServerResponse(status: 204, headers: Self.securityHeaders)
        case .mesh(let text): return try Self.json(await core.diagnostics.mesh(text))
        case .meshPicture(let text):
            return HTTPServerResponse(status: 200, contentType: "image/svg+xml", headers: Self.securityHeaders, body: try await core.diagnostics.meshPicture(text))
        case .doctor(let text): return try Self.json(await core.diagnostics.doctor(text))
        case .dataset(let text):
            let flags = try Self.flags(request.query, allowed: ["pending", "revealSecrets"])
            let (id, dataset) = try await core.routers.dataset(text, pending: flags.contains("pending"))
            if flags.contains("revealSecrets") { logger.info("API: a dataset was read with its secrets", [("router", id), token]) }
            return try Self.json(dataset, revealSecrets: flags.contains("revealSecrets"))
        case .join(let text):
            let body = try Self.decode(JoinRequest.self, request)
            let (id, result) = try await core.routers.join(text, datasetHex: body.dataset, thisRouterOnly: body.thisRouterOnly ?? false)
            logger.info("API: join requested", [("router", id), token])
            return try Self.json(result)
        case .leave(let text):
            let id = try await core.routers.leave(text)
            logger.info("API: leave requested", [("router", id), token])
            return try Self.json(["router": id, "status": "success"])
        case .structures: return try Self.json(await core.structures.structureViews())
        case .createStructure:
            let body = try Self.decode(StructureRequest.self, request)
            let view = try await core.structures.createStructure(named: body.name)
            logger.info("API: structure created", [("structure", view.name), token])
            return try Self.json(view, status: 201)
        case .structure(let name): return try Self.json(await core.structures.structureView(name))
        case .deleteStructure(let name):
            try await core.structures.deleteStructure(name)
            logger.info("API: structure deleted", [("structure", name), token])
            return try Self.json(["deleted": name])
        case .addRouter(let name, let router): return try Self.json(await core.structures.changeRouters(of: name, router: router, add: true))
        case .removeRouter(let name, let router): return try Self.json(await core.structures.changeRouters(of: name, router: router, add: false))
        case .rooms(let name): return try Self.json(await core.structures.rooms(of: name, adding: nil, removing: nil))
        case .addRoom(let name, let room): return try Self.json(await core.structures.rooms(of: name, adding: room, removing: nil))
        case .removeRoom(let name, let room): return try Self.json(await core.structures.rooms(of: name, adding: nil, removing: room))
        case .networks(let name): return try Self.json(await core.structures.networks(of: name))
        case .nodes(let name): return try Self.json(await core.matter.matterNodes(of: name))
        case .commission(let name):
            let body = try Self.decode(CommissionRequest.self, request)
            let order = CommissioningOrder(
                codes: body.codes, network: body.network, onNetwork: body.onNetwork ?? false, name: body.name, room: body.room)
            let started = try await core.matter.startCommissioning(into: name, order)
            logger.info("API: commissioning started", [("structure", started.structure), ("codes", String(body.codes.count)), token])
            return try Self.json(started, status: 202)
        case .cancelCommissioning(let name, let session):
            let structure = try await core.matter.cancelCommissioning(in: name, session: session)
            logger.info("API: commissioning cancelled", [("structure", structure), ("session", session), token])
            return HTTPServerResponse(status: 204, headers: Self.securityHeaders)
        case .policy(let name): return try Self.json(await core.structures.policy(of: name))
        case .setPolicy(let name):
            let body = try Self.decode(PolicyRequest.self, request)
            logger.info("API: policy set", [("structure", name), ("option", body.internetAccessOption), token])
            return try Self.json(await core.structures.setPolicy(of: name, option: body.internetAccessOption))
        case .events: return try await eventStream(lastEventID: request.headers["last-event-id"])
        case .health: return try Self.json(await core.health.problems())
        case .healthHistory:
            let query = try Self.parameters(request.query, allowed: ["seconds", "router"])
            var seconds: Double?
            if let text = query["seconds"] {
                guard let value = Double(text), value > 0, value.isFinite else {
                    throw CoreError(.invalidArgument, "seconds is a number of seconds above 0, such as 86400")
                }
                seconds = value
            }
            return try Self.json(
                HealthHistory(
                    problems: try await core.health.problemHistory(seconds: seconds, router: query["router"]),
                    samples: try await core.health.samples(seconds: seconds, router: query["router"])))
        case .metrics:
            let text = PrometheusExposition.text(try await core.health.metrics())
            return HTTPServerResponse(status: 200, contentType: PrometheusExposition.contentType, headers: Self.securityHeaders, body: Array(text.utf8))
        case .openAPI:
            return HTTPServerResponse(status: 200, contentType: "application/json", headers: Self.securityHeaders, body: Array(OpenAPIDocument.text.utf8))
        }
    }
}
