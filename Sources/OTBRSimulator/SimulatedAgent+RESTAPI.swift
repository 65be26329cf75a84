import HTTPMessages
import HTTPServer
import TBRFoundation

/// The REST API's `/api/` collections (ot-br-posix `rest_web_server.cpp`, `Api*Handler`): actions
/// (`getNetworkDiagnosticTask`, `updateDeviceCollectionTask`), devices, diagnostics and `/api/node`, in
/// JSON:API (`application/vnd.api+json`) or plain JSON. Tasks run in SimulatedAgent+RESTTasks.swift.
extension SimulatedAgent {
    static let jsonAPI = "application/vnd.api+json"

    /// Answers a request to an `/api/` route; nil for any other route.
    func answerAPI(_ route: RESTRoute, _ method: String, _ request: HTTPServerRequest) -> HTTPServerResponse? {
        processRESTTasks()
        switch (route, method) {
        case (.actions, "OPTIONS"): return HTTPServerResponse(status: 204, headers: ["Allow": "GET, POST, DELETE, OPTIONS"])
        case (.devices, "OPTIONS"), (.diagnostics, "OPTIONS"): return HTTPServerResponse(status: 204, headers: ["Allow": "GET, DELETE, OPTIONS"])
        case (.actions, "POST"): return postTasks(request)
        case (.actions, "DELETE"):
            restServices.removeAllTasks()
            return RESTAnswer.empty(204)
        case (.action(let id), "DELETE"):
            return RFC3339.isUUID(id) && restServices.removeTask(id) ? RESTAnswer.empty(204) : RESTAnswer.problem(404)
        case (.devices, "DELETE"):
            restServices.removeDevices(keeping: nil)
            return RESTAnswer.empty(204)
        case (.device(let id), "DELETE"):
            // The agent's check is inverted: removing a device answers 404, an unknown one 204.
            guard id.utf8.count == 16, id.allSatisfy(\.isHexDigit) else { return RESTAnswer.problem(404) }
            return restServices.removeDevice(id) ? RESTAnswer.problem(404) : RESTAnswer.empty(204)
        case (.diagnostics, "DELETE"):
            restServices.removeAllDiagnostics()
            return RESTAnswer.empty(204)
        case (.diagnostic(let id), "DELETE"):
            return RFC3339.isUUID(id) && restServices.removeDiagnostic(id) ? RESTAnswer.empty(204) : RESTAnswer.problem(404)
        case (.actions, _), (.action, _), (.devices, _), (.device, _), (.diagnostics, _), (.diagnostic, _), (.apiNode, _):
            return read(route, request)
        default: return nil
        }
    }

    /// `GET`: the collection (`{"data": [...], "meta": {"collection": ...}}`) or one item (`{"data": ...}`)
    /// with `Accept: application/vnd.api+json` (or `*/*`); the bare attributes with `application/json`;
    /// 406 for any other `Accept`, none included.
    private func read(_ route: RESTRoute, _ request: HTTPServerRequest) -> HTTPServerResponse {
        let accept = request.accept == "*/*" ? Self.jsonAPI : request.accept
        guard accept == Self.jsonAPI || accept == RESTAnswer.json else { return RESTAnswer.problem(406) }
        let api = accept == Self.jsonAPI
        let now = clock.now()
        let s = restServices
        let body: JSON?
        switch route {
        case .actions:
            let pending = s.tasks.filter(\.isPendingOrActive).count
            body = api
                ? collection(s.tasks.map { $0.resource(now: now) }, total: s.tasks.count, pending: pending)
                : .array(s.tasks.map { $0.attributes(now: now, created: false) })
        case .action(let id):
            guard RFC3339.isUUID(id), let task = s.task(id) else { return RESTAnswer.problem(404) }
            body = api ? ["data": task.resource(now: now)] : task.attributes(now: now, created: false)
        case .devices:
            body = api ? collection(s.devices.map(\.resource), total: s.devices.count) : .array(s.devices.map { .object($0.attributes) })
        case .device(let id):
            guard let device = s.device(id) else { return RESTAnswer.problem(404) }
            body = api ? ["data": device.resource] : .object(device.attributes)
        case .apiNode:
            guard let device = s.device(PartitionView.hex64(persistent.extendedAddress)) else { return RESTAnswer.problem(404) }
            body = api ? ["data": device.resource] : .object(device.attributes)
        case .diagnostics:
            body = api
                ? collection(s.diagnostics.map(\.resource), total: s.diagnostics.count)
                : .array(s.diagnostics.map { .object($0.attributes) })
        case .diagnostic(let id):
            guard let item = s.diagnostic(id) else { return RESTAnswer.problem(404) }
            body = api ? ["data": item.resource] : .object(item.attributes)
        default: body = nil
        }
        guard let body else { return RESTAnswer.problem(404) }
        return HTTPServerResponse(status: 200, contentType: api ? Self.jsonAPI : RESTAnswer.json, body: Array(body.serialized.utf8))
    }

    /// A JSON:API collection document (`jsonStr2JsonApiColl`, `CreateMetaCollection`): limit 200, and
    /// for actions the number pending or active.
    private func collection(_ items: [JSON], total: Int, pending: Int? = nil) -> JSON {
        var meta: JSONObject = ["offset": 0, "limit": JSON(RESTServices.capacity), "total": JSON(total)]
        if let pending { meta["pending"] = JSON(pending) }
        return ["data": .array(items), "meta": ["collection": .object(meta)]]
    }

    /// `POST /api/actions` (`ApiActionsPostHandler`): `Content-Type: application/vnd.api+json` (none:
    /// 406, another: 415), a JSON body (else 400) with a `data` array of tasks that are all valid (else
    /// 422). Answers 200 with the tasks created, each pending.
    private func postTasks(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard let type = request.contentType else { return RESTAnswer.problem(406) }
        guard type == Self.jsonAPI else { return RESTAnswer.problem(415) }
        guard let root = try? JSON(parsing: String(decoding: request.body, as: UTF8.self)) else { return RESTAnswer.problem(400) }
        guard let data = root["data"]?.array else { return RESTAnswer.problem(422) }
        let now = clock.now()
        let wall = clock.wallTime()
        var tasks: [RESTTask] = []
        for item in data {
            guard let task = RESTTask(item, id: RFC3339.randomUUID(), now: now, wallTime: wall) else { return RESTAnswer.problem(422) }
            tasks.append(task)
        }
        for task in tasks { restServices.add(task) }
        let created: [JSON] = tasks.map {
            ["id": .string($0.id), "type": .string($0.kind.rawValue), "attributes": $0.attributes(now: now, created: false)]
        }
        let body: JSON = ["data": .array(created), "meta": ["collection": ["offset": 0, "limit": 200, "total": JSON(created.count)]]]
        return HTTPServerResponse(status: 200, contentType: Self.jsonAPI, body: Array(body.serialized.utf8))
    }
}
