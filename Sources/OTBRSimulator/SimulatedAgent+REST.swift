import HTTPMessages
import HTTPServer
import MeshCoP
import OpenThreadBR
import TBRFoundation

/// otbr-agent's REST API (`--rest`; ot-br-posix `src/rest`, what a real agent answers:
/// `../otbr/rest.md`) over the same state as the D-Bus API: one agent, two ways in. The server belongs
/// to the agent process: it starts with it, stops when it exits (connections refused) and comes back on
/// the same port. Routing and node endpoints here; datasets in SimulatedAgent+RESTDataset.swift, the
/// ephemeral key in SimulatedAgent+RESTEpskc.swift.
extension SimulatedAgent {
    /// The REST API's base URL while the agent process serves it, e.g. `http://127.0.0.1:8081`; nil
    /// without `--rest` and while the process is down.
    public var restURL: String? {
        guard let server = restServer else { return nil }
        return "http://" + RESTListenAddress(host: server.host, port: server.port).description
    }

    /// Starts this process's REST server, on the port of the first start if there was one.
    /// - Throws: ``HTTPServerError`` when the address and port cannot be served.
    func startREST() throws(HTTPServerError) {
        guard let listen = configuration.restListen, restServer == nil else { return }
        let life = self.life
        let server = try HTTPServer.start(host: listen.host, port: restPort ?? listen.port, headers: RESTAnswer.defaultHeaders) {
            [weak self] request in
            guard let self else { return RESTAnswer.problem(503) }
            return await self.answerREST(request, life: life)
        }
        restServer = server
        restPort = server.port
        restServices = RESTServices()
        addOwnDevice()
        logger.info("serving the REST API", [("interface", interfaceName.rawValue), ("port", "\(server.port)")])
    }

    /// Stops the REST server with the process; requests still running get their answers first.
    func stopREST() async {
        guard let server = restServer else { return }
        restServer = nil
        await server.shutdown()
    }

    /// Answers one request to the REST server of process `life`, then brings mDNS in line.
    private func answerREST(_ request: HTTPServerRequest, life: UInt64) async -> HTTPServerResponse {
        // A request that raced the process's exit: that process is gone.
        guard life == self.life, restServer != nil else { return RESTAnswer.problem(503) }
        let response = await routeREST(request)
        await advertise()
        return response
    }

    private func routeREST(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        let route = RESTRoute(path: request.path, epskcBuiltIn: configuration.epskcBuiltIn)
        if request.method == "HEAD", let route, route.methods.contains("GET") {
            return await answer(route, "GET", request)
        }
        guard RESTRoute.routedMethods.contains(request.method) else {
            return RESTAnswer.problem(405, detail: "method not supported", headers: ["Allow": RESTRoute.allowHeader])
        }
        guard let route, route.methods.contains(request.method) else { return RESTAnswer.problem(404) }
        if let api = answerAPI(route, request.method, request) { return api }
        if request.method == "OPTIONS" {
            return route == .wellKnown ? HTTPServerResponse(status: 204, headers: ["Allow": "GET, OPTIONS"]) : RESTAnswer.empty()
        }
        return await answer(route, request.method, request)
    }

    private func answer(_ route: RESTRoute, _ method: String, _ request: HTTPServerRequest) async -> HTTPServerResponse {
        switch (route, method) {
        case (.node, "GET"): return RESTAnswer.ok(restNode())
        case (.node, "DELETE"):
            await factoryReset()
            return RESTAnswer.empty()
        case (.borderAgentID, _): return RESTAnswer.ok(.string(Hex.encode(runtime.borderAgentID)))
        case (.state, "GET"): return RESTAnswer.ok(.string(runtime.role.wireName))
        case (.state, "PUT"): return await restSetState(request.body)
        case (.extendedAddress, _): return RESTAnswer.ok(.string(ExtendedAddress(rawValue: persistent.extendedAddress).description))
        case (.networkName, _): return RESTAnswer.ok(.string(restNetworkName))
        case (.rloc16, _): return RESTAnswer.ok(JSON(restRloc16))
        case (.leaderData, _):
            // `otThreadGetLeaderData` fails while detached: the handler answers 500.
            return runtime.role.isAttached ? RESTAnswer.ok(restLeaderData) : RESTAnswer.problem(500)
        case (.routerCount, _): return RESTAnswer.ok(JSON(restRouterCount))
        case (.extendedPANID, _): return RESTAnswer.ok(.string(restExtendedPANID.description))
        case (.rloc, _): return RESTAnswer.ok(.string(restRlocAddress))
        case (.activeDataset, "GET"), (.pendingDataset, "GET"): return restDataset(pending: route == .pendingDataset, request)
        case (.activeDataset, "PUT"), (.pendingDataset, "PUT"): return await restWriteDataset(pending: route == .pendingDataset, request)
        case (.epskcState, _): return restEpskcState(method, request)
        case (.epskcKey, _): return restEpskcKey(method, request)
        case (.wellKnown, _): return RESTAnswer.ok(RESTAnswer.wellKnown)
        default: return answerAPI(route, method, request) ?? RESTAnswer.problem(405)
        }
    }

    // MARK: /node

    /// `GET /node` (`Node2Json`): keys in the agent's order; `baState` is empty (the handler never sets
    /// it); `routerId` only for a router RLOC16; the leader data zero unless attached.
    private func restNode() -> JSON {
        var node: JSONObject = [
            "baId": .string(Hex.encode(runtime.borderAgentID)), "baState": "", "state": .string(runtime.role.wireName),
            "routerCount": JSON(restRouterCount), "rlocAddress": .string(restRlocAddress),
            "extAddress": .string(ExtendedAddress(rawValue: persistent.extendedAddress).description),
            "networkName": .string(restNetworkName), "rloc16": .string(restRloc16Text),
        ]
        if restRloc16 & 0x01FF == 0 { node["routerId"] = JSON(restRloc16 >> 10) }
        node["leaderData"] = runtime.role.isAttached ? restLeaderData : Self.zeroLeaderData
        node["extPanId"] = .string(restExtendedPANID.description)
        return .object(node)
    }

    /// `PUT /node/state`: `"enable"` brings Thread up (`otThreadSetEnabled(true)`), `"disable"` takes it
    /// down at once (no graceful detach). Neither touches the host's "Thread enabled" state of D-Bus.
    private func restSetState(_ body: [UInt8]) async -> HTTPServerResponse {
        switch RESTAnswer.jsonString(body) {
        case "enable": await startThreadStack()
        case "disable": await stopThread()
        default: return RESTAnswer.problem(400)
        }
        return RESTAnswer.empty()
    }

    private var restActiveDataset: OperationalDataset? { persistent.activeDataset.flatMap(DatasetRules.decode) }

    /// The RLOC16: the router's while attached (as D-Bus `Rloc16`), else 0xfffe.
    private var restRloc16: UInt16 { ownRloc16 }

    /// `0xfffe`: four lower-case hex digits (`Number2HexJson`).
    private var restRloc16Text: String {
        let digits = String(restRloc16, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// The routers in the router table: this node, when it is one, and every simulated router.
    private var restRouterCount: Int { runtime.role == .router || runtime.role == .leader ? 1 + visibleMesh.routers.count : 0 }

    private var restNetworkName: String { restActiveDataset?.networkName?.rawValue ?? "OpenThread" }

    private var restExtendedPANID: ExtendedPANID {
        restActiveDataset?.extendedPANID ?? ExtendedPANID(Self.defaultExtendedPANID)
    }

    /// The RLOC: the mesh-local prefix (the dataset's, else the default) and `0:ff:fe00:<RLOC16>`.
    private var restRlocAddress: String {
        let prefix = restActiveDataset?.meshLocalPrefix ?? (try? MeshLocalPrefix(tlvValue: runtime.meshLocalPrefix))
        return (prefix ?? MeshLocalPrefix(0)).address(interfaceIdentifier: 0x0000_00FF_FE00_0000 | UInt64(restRloc16))
    }

    /// The leader data, as D-Bus `LeaderData` has it.
    private var restLeaderData: JSON {
        let data = leaderData
        return [
            "partitionId": JSON(data.partitionID), "weighting": JSON(data.weighting), "dataVersion": JSON(data.dataVersion),
            "stableDataVersion": JSON(data.stableDataVersion), "leaderRouterId": JSON(data.leaderRouterID),
        ]
    }

    private static let zeroLeaderData: JSON = [
        "partitionId": 0, "weighting": 0, "dataVersion": 0, "stableDataVersion": 0, "leaderRouterId": 0,
    ]
}
