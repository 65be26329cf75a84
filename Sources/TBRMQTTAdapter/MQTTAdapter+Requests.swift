import FoundationEssentials
import MQTT
import MQTTMapping
import TBRCore
import TBRDocuments
import TBRFoundation

// Each request as one core call: its body decoded (MQTTMapping), the setting it needs checked, the
// core's answer as `{"status": "ok", "data": …, "transaction": …}` or its error as `{"status": "error",
// "error": {type, title, detail, exitStatus}, "transaction": …}`. Nothing here decides.

extension MQTTAdapter {
    /// Answers one request on `<base>/bridge/response/<operation>`, and on its MQTT 5 response topic with
    /// its correlation data when it names one.
    func answer(_ operation: String, _ message: MQTTMessage) async {
        let (decoded, transaction) = MQTTRequest.decode(operation: operation, payload: message.payload)
        let outcome: Result<[UInt8], CoreError>
        switch decoded {
        case .failure(.invalid(let why)): outcome = .failure(CoreError(.invalidArgument, why))
        case .failure(.unknownOperation(let why)): outcome = .failure(CoreError(.notFound, why))
        case .success(let request):
            if let refusal = refusal(of: request, operation) {
                outcome = .failure(refusal)
            } else {
                do {
                    outcome = .success(try await core.lifecycle.serving { try await self.serve(request) })
                } catch {
                    outcome = .failure(error as? CoreError ?? CoreError(.failed, "tbrd failed (\(type(of: error)))"))
                }
            }
        }
        let payload = Self.response(outcome, transaction: transaction)
        client.publish(MQTTMessage(topic: settings.topics.response(String(operation.prefix(200))), payload: payload))
        if let responseTopic = message.responseTopic, !responseTopic.isEmpty, !responseTopic.contains(where: { $0 == "+" || $0 == "#" }) {
            client.publish(MQTTMessage(topic: responseTopic, payload: payload, correlationData: message.correlationData))
        }
    }

    /// Why `request` may not be made with tbrd.conf as it is, or nil.
    private func refusal(of request: MQTTRequest, _ operation: String) -> CoreError? {
        switch request.permission {
        case .always: nil
        case .admin where !settings.admin:
            CoreError(.permissionDenied, "\(operation) is off over MQTT: mqtt-admin = yes in tbrd.conf turns it on (docs/mqtt.md)")
        case .epskc where !settings.epskc:
            CoreError(.permissionDenied, "\(operation) is off over MQTT: mqtt-epskc = yes in tbrd.conf turns it on (docs/mqtt.md)")
        default: nil
        }
    }

    /// The response document: `data` is the core's answer as JSON text.
    static func response(_ outcome: Result<[UInt8], CoreError>, transaction: JSON?) -> [UInt8] {
        var text: String
        switch outcome {
        case .success(let data): text = #"{"status":"ok","data":"# + String(decoding: data, as: UTF8.self)
        case .failure(let error):
            let condition = error.condition
            let problem: JSON = [
                "type": .string("urn:tbrd:problem:" + condition.problemType), "title": .string(condition.title),
                "detail": .string(error.message.isEmpty ? condition.title : error.message), "exitStatus": JSON(Int(condition.exitStatus)),
            ]
            text = #"{"status":"error","error":"# + problem.serialized
        }
        if let transaction { text += #","transaction":"# + transaction.serialized }
        return Array((text + "}").utf8)
    }

    /// One core call, its answer as JSON.
    private func serve(_ request: MQTTRequest) async throws -> [UInt8] {
        switch request {
        case .routers: return try Self.encode(await core.routers.routerListings())
        case .router(let id): return try Self.encode(await core.routers.routerInfo(id))
        case .structures: return try Self.encode(await core.structures.structureViews())
        case .structure(let name): return try Self.encode(await core.structures.structureView(name))
        case .setPolicy(let name, let option):
            logger.info("MQTT: policy set", [("structure", name), ("option", option)])
            return try Self.encode(await core.structures.setPolicy(of: name, option: option))
        case .health: return try Self.encode(await core.health.problems())
        case .activateEpskc(let router, let seconds):
            let (id, activation) = try await core.routers.activateEpskc(router, seconds: seconds)
            logger.info("MQTT: ePSKc requested", [("router", id)])
            return try Self.encode(activation)
        case .deactivateEpskc(let router):
            let id = try await core.routers.deactivateEpskc(router)
            logger.info("MQTT: ePSKc stopped", [("router", id)])
            return try Self.encode(["router": id])
        case .createStructure(let name):
            let view = try await core.structures.createStructure(named: name)
            logger.info("MQTT: structure created", [("structure", view.name)])
            return try Self.encode(view)
        case .deleteStructure(let name):
            try await core.structures.deleteStructure(name)
            logger.info("MQTT: structure deleted", [("structure", name)])
            return try Self.encode(["deleted": name])
        case .addRouter(let name, let router): return try Self.encode(await core.structures.changeRouters(of: name, router: router, add: true))
        case .removeRouter(let name, let router): return try Self.encode(await core.structures.changeRouters(of: name, router: router, add: false))
        case .addRoom(let name, let room): return try Self.encode(await core.structures.rooms(of: name, adding: room, removing: nil))
        case .removeRoom(let name, let room): return try Self.encode(await core.structures.rooms(of: name, adding: nil, removing: room))
        case .join(let router, let dataset, let thisRouterOnly):
            let (id, result) = try await core.routers.join(router, datasetHex: dataset, thisRouterOnly: thisRouterOnly)
            logger.info("MQTT: join requested", [("router", id)])
            return try Self.encode(result)
        case .leave(let router):
            let id = try await core.routers.leave(router)
            logger.info("MQTT: leave requested", [("router", id)])
            return try Self.encode(["router": id, "status": "success"])
        case .commission(let name, let codes, let network, let onNetwork, let nodeName, let room):
            let started = try await core.matter.startCommissioning(
                into: name, CommissioningOrder(codes: codes, network: network, onNetwork: onNetwork, name: nodeName, room: room))
            logger.info("MQTT: commissioning started", [("structure", started.structure), ("codes", String(codes.count))])
            return try Self.encode(started)
        case .cancelCommissioning(let name, let session):
            let structure = try await core.matter.cancelCommissioning(in: name, session: session)
            logger.info("MQTT: commissioning cancelled", [("structure", structure), ("session", session)])
            return try Self.encode(["structure": structure, "session": session])
        }
    }

    /// Home Assistant's select: the option word as the whole payload. A refusal is logged and the
    /// structure's state published again, so the select shows what holds.
    func setInternetAccess(of structure: String, _ payload: [UInt8]) async {
        let word = String(decoding: payload.prefix(64), as: UTF8.self).filter { !$0.isWhitespace }
        do {
            _ = try await core.lifecycle.serving { try await self.core.structures.setPolicy(of: structure, option: word) }
            logger.info("MQTT: internet access set", [("structure", structure), ("option", word)])
        } catch {
            logger.warning("MQTT: internet access not set", [("structure", structure), ("error", "\(error)")])
            ask(.structures)
        }
    }
}
