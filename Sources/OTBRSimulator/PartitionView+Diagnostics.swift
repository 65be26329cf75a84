import TBRFoundation

/// What a node answers to `DIAG_GET` and the mesh diagnostic queries, as the agent's REST API turns it
/// into a `networkDiagnostics` item (ot-br-posix `json.cpp`: `Diag2cJSON`, `DiagSet2JsonString`).
extension PartitionView {
    /// The types `types` (the task's, in TLV order) as the agent sends them in its `DIAG_GET.req`: the
    /// non-query ones, then RLOC16 and extended address when not asked for
    /// (`NetworkDiagHandler::StartDiagnosticsRequest`).
    static func requestList(_ types: [RESTDiagnosticType]) -> [RESTDiagnosticType] {
        var list = types.filter { !$0.isQuery }
        if !list.contains(.rloc16) { list.append(.rloc16) }
        if !list.contains(.extAddress) { list.append(.extAddress) }
        return list
    }

    /// Whether `s` answers every non-omittable type of `types` (otherwise the agent waits for more
    /// answers until the task's time runs out).
    func answersFully(_ s: Subject, _ types: [RESTDiagnosticType]) -> Bool {
        Self.requestList(types).allSatisfy { $0.isOmittable || tlv($0, of: s) != nil }
    }

    /// The attributes of the diagnostics item for `s` (without `created`): each answered TLV in request
    /// order, then the border router's counters, the query results of a router and the role flags.
    func diagnostics(_ s: Subject, types: [RESTDiagnosticType]) -> JSONObject {
        var out = JSONObject()
        let request = Self.requestList(types)
        for type in request {
            guard let value = tlv(type, of: s) else { continue }
            out[type.key] = value
            if type == .rloc16, isRouter(s) { out["routerId"] = JSON(rloc16(s) >> 10) }
        }
        if s == .borderRouter {
            let names = ["ifInUcastPkts", "ifInBroadcastPkts", "ifOutUcastPkts", "ifOutBroadcastPkts", "raRx", "raTxSuccess"]
            out["brCounters"] = .object(JSONObject((names + ["raTxFailed", "rsRx", "rsTxSuccess", "rsTxFailed"]).map { ($0, 0) }))
        }
        if isRouter(s) {
            if types.contains(.children) { out["children"] = .array(children(s).map { childEntry($0) }) }
            if types.contains(.childIPv6Addresses) {
                out["childIpv6Addresses"] = .array(
                    children(s).map { child in
                        let addresses = addresses(.node(child)).enumerated().filter { $0.offset != 1 }.map { JSON.string($0.element) }
                        return ["rloc16": .string(Self.hex16(rloc16(.node(child)))), "ipv6Addresses": .array(addresses)]
                    })
            }
            if types.contains(.routerNeighbors) { out["routerNeighbors"] = .array(routerNeighbours(s).map { neighbourEntry($0.router, $0.linkQuality) }) }
        }
        if request.contains(.ipv6Addresses) {
            let leader = s == .borderRouter
            out["isLeader"] = .bool(leader)
            out["hostsService"] = false
            out["isPrimaryBBR"] = false
            out["isBorderRouter"] = .bool(leader && borderRouterHasRoutes)
        }
        return out
    }

    /// The JSON of one TLV as `s` answers it; nil for one it does not send.
    func tlv(_ type: RESTDiagnosticType, of s: Subject) -> JSON? {
        let router = isRouter(s)
        switch type {
        case .extAddress: return .string(Self.hex64(ext(s)))
        case .rloc16: return .string(Self.hex16(rloc16(s)))
        case .mode:
            let m = mode(s)
            return ["rxOnWhenIdle": .bool(m.rxOnWhenIdle), "fullThreadDevice": .bool(m.fullThreadDevice), "fullNetworkData": .bool(m.fullNetworkData)]
        case .timeout:
            // Only a node that is not rx-on-when-idle reports its timeout.
            guard case .node(let n) = s, !n.rxOnWhenIdle else { return nil }
            return JSON(n.timeout)
        case .connectivity:
            guard router else { return nil }
            let links = routerNeighbours(s).map(\.linkQuality)
            return [
                "parentPriority": 0, "linkQuality3": JSON(links.filter { $0 == 3 }.count), "linkQuality2": JSON(links.filter { $0 == 2 }.count),
                "linkQuality1": JSON(links.filter { $0 == 1 }.count), "leaderCost": JSON(pathCost(s, .borderRouter) ?? 0),
                "idSequence": JSON(routerIDSequence), "activeRouters": JSON(routers.count), "sedBufferSize": 1280, "sedDatagramCount": 1,
            ]
        case .route:
            guard router else { return nil }
            return ["idSequence": JSON(routerIDSequence), "routeData": .array(routers.map { routeData(from: s, to: $0) })]
        case .leaderData:
            return [
                "partitionId": JSON(leaderData.partitionID), "weighting": JSON(leaderData.weighting),
                "dataVersion": JSON(leaderData.dataVersion), "stableDataVersion": JSON(leaderData.stableDataVersion),
                "leaderRouterId": JSON(leaderData.leaderRouterID),
            ]
        case .networkData: return .string(Hex.encode(networkData).lowercased())
        case .ipv6Addresses: return .array(addresses(s).map { .string($0) })
        case .macCounters:
            let names = ["ifInUnknownProtos", "ifInErrors", "ifOutErrors", "ifInUcastPkts", "ifInBroadcastPkts", "ifInDiscards"]
            return .object(JSONObject((names + ["ifOutUcastPkts", "ifOutBroadcastPkts", "ifOutDiscards"]).map { ($0, 0) }))
        case .childTable:
            guard router else { return nil }
            return .array(
                children(s).map { child in
                    let m = mode(.node(child))
                    return [
                        "childId": JSON(child.id), "timeout": JSON(Self.encodedTimeout(child.timeout)), "linkQuality": JSON(child.linkQuality),
                        "mode": ["rxOnWhenIdle": .bool(m.rxOnWhenIdle), "fullThreadDevice": .bool(m.fullThreadDevice), "fullNetworkData": true],
                    ]
                })
        case .channelPages: return "00"
        case .eui: return .string(Self.hex64(s == .borderRouter ? borderRouterEUI64 : ext(s) ^ 0x0200_0000_0000_0000))
        case .threadVersion: return JSON(SimulatedMesh.threadVersion)
        case .vendorName: return .string(s == .borderRouter ? vendorName : "OpenThread")
        case .vendorModel: return .string(s == .borderRouter ? productName : "SimulatedNode")
        case .vendorSwVersion: return .string(s == .borderRouter ? SimulatedAgent.otbrVersion : "1.0")
        case .threadStackVersion:
            return .string(s == .borderRouter ? SimulatedAgent.otHostVersion : "OPENTHREAD/otbr-sim; simulated node")
        case .mleCounters:
            let counts = ["radioDisabledCount", "detachedRoleCount", "childRoleCount", "routerRoleCount", "leaderRoleCount"]
            let more = ["attachAttemptsCount", "partIdChangesCount", "betterPartIdAttachAttemptsCount", "newParentCount"]
            let times = ["totalTrackingTime", "radioDisabledTime", "detachedRoleTime", "childRoleTime", "routerRoleTime", "leaderRoleTime"]
            return .object(JSONObject((counts + more + times).map { ($0, 0) }))
        default: return nil
        }
    }

    /// The router ID sequence of the partition's Route64 (made up from the partition ID).
    var routerIDSequence: UInt8 { UInt8(truncatingIfNeeded: leaderData.partitionID) }

    /// One entry of `s`'s Route64 (`RouterTable::FillRouteTlv`): for itself link qualities 0 and cost 1;
    /// for a neighbour the link qualities of the link; the path cost (0 when unreachable).
    private func routeData(from s: Subject, to r: Subject) -> JSON {
        let id = JSON(rloc16(r) >> 10)
        if r == s { return ["routeId": id, "linkQualityOut": 0, "linkQualityIn": 0, "routeCost": 1] }
        let link = routerNeighbours(s).first { $0.router == r }?.linkQuality ?? 0
        return ["routeId": id, "linkQualityOut": JSON(link), "linkQualityIn": JSON(link), "routeCost": JSON(pathCost(s, r) ?? 0)]
    }

    /// A child of the mesh diagnostic child table (`MeshChildEntry2Json`).
    private func childEntry(_ child: MeshNode) -> JSON {
        let rssi = Int64(SimulatedMesh.averageRSSI(linkQuality: child.linkQuality))
        let rloc = rloc16(.node(child))
        let age = SimulatedMesh.age(of: child, now: now)
        return [
            "rxOnWhenIdle": .bool(child.rxOnWhenIdle), "fullThreadDevice": .bool(child.fullThreadDevice), "fullNetworkData": true,
            "cslSynchronized": false, "supportsErrorRate": false, "rloc16": .string(Self.hex16(rloc)), "childId": JSON(rloc & 0x1FF),
            "extAddress": .string(Self.hex64(child.extAddress)), "threadVersion": JSON(SimulatedMesh.threadVersion),
            "timeout": JSON(child.timeout), "age": JSON(min(age, 4)), "linkAge": JSON(age), "linkMargin": JSON(rssi + 100),
            "averageRssi": JSON(rssi), "lastRssi": JSON(rssi), "queuedMessageCount": 0,
        ]
    }

    /// A neighbouring router (`MeshRouterNeighborEntry2Json`).
    private func neighbourEntry(_ r: Subject, _ linkQuality: UInt8) -> JSON {
        let rssi = Int64(SimulatedMesh.averageRSSI(linkQuality: linkQuality))
        let since = if case .node(let n) = r { n.added } else { now }
        return [
            "supportsErrorRate": false, "rloc16": .string(Self.hex16(rloc16(r))), "extAddress": .string(Self.hex64(ext(r))),
            "threadVersion": JSON(SimulatedMesh.threadVersion), "linkAge": JSON(max(0, (now - since).components.seconds)),
            "linkMargin": JSON(rssi + 100), "averageRssi": JSON(rssi), "lastRssi": JSON(rssi),
        ]
    }

    /// A child timeout as the Child Table TLV carries it: 4 + the exponent of the power of two that
    /// covers it.
    static func encodedTimeout(_ seconds: UInt32) -> Int {
        var exponent = 0
        while exponent < 31, UInt32(1) << exponent < seconds { exponent += 1 }
        return exponent + 4
    }
}
