public import TBRFoundation

/// Reading `/api/diagnostics` (untrusted bytes from the network: every field is checked, nothing can
/// crash; fuzzed in fuzz/RESTFuzz.swift). Only TBRFoundation is imported, so the fuzz target compiles
/// this file as it is.
extension NetworkDiagnostics {
    /// The most diagnostics items read from one document.
    static let maximumItems = 1000

    /// Decodes a `/api/diagnostics` JSON:API document: a collection (`{"data": [...]}`) or one item
    /// (`{"data": {...}}`) of `networkDiagnostics` items (other types are skipped). Each item gives a
    /// node; a router's `children` give its children, unless they have an item of their own.
    /// - Parameters:
    ///   - body: the document's bytes.
    ///   - ids: when given, only the items with these IDs are read.
    /// - Throws: ``RESTAgentError`` `invalidResponse` saying what is wrong.
    public static func decode(_ body: [UInt8], keeping ids: Set<String>? = nil) throws(RESTAgentError) -> NetworkDiagnostics {
        let json: JSON
        do { json = try JSON(parsing: String(decoding: body, as: UTF8.self)) } catch {
            throw Self.unreadable("the answer is not JSON (\(error))")
        }
        return try decode(json, keeping: ids)
    }

    /// Decodes a parsed `/api/diagnostics` document; see the other `decode(_:keeping:)`.
    public static func decode(_ json: JSON, keeping ids: Set<String>? = nil) throws(RESTAgentError) -> NetworkDiagnostics {
        let items: [JSON]
        switch json["data"] {
        case .array(let list)?: items = list
        case .object?: items = [json["data"] ?? .null]
        default: throw Self.unreadable("the document has no data")
        }
        guard items.count <= maximumItems else { throw Self.unreadable("more than \(maximumItems) items") }
        var own: [Node] = []
        var listed: [Node] = []
        for item in items {
            guard let type = item["type"]?.string, let id = item["id"]?.string, let attributes = item["attributes"],
                attributes.object != nil
            else { throw Self.unreadable("an item lacks its id, type or attributes") }
            guard type == "networkDiagnostics", ids?.contains(id) ?? true else { continue }
            let node = try Self.node(attributes)
            own.removeAll { $0.extAddress == node.extAddress }
            own.append(node)
            if let children = attributes["children"] {
                guard let list = children.array, list.count <= 511 else { throw Self.unreadable("a router's children are not a list") }
                for child in list { listed.append(try Self.child(child, of: node)) }
            }
        }
        var nodes = own
        for child in listed {
            if let i = nodes.firstIndex(where: { $0.extAddress == child.extAddress }) {
                nodes[i].childTimeout = nodes[i].childTimeout ?? child.childTimeout
                nodes[i].mode = nodes[i].mode ?? child.mode
                nodes[i].age = child.age
                nodes[i].linkMargin = child.linkMargin
            } else {
                nodes.append(child)
            }
        }
        nodes.sort { ($0.rloc16, $0.extAddress) < ($1.rloc16, $1.extAddress) }
        let leader = nodes.first { $0.role == .router && $0.leaderData != nil }?.leaderData ?? nodes.first { $0.leaderData != nil }?.leaderData
        return NetworkDiagnostics(nodes: nodes, leaderData: leader)
    }

    /// One item's attributes: `extAddress`, `rloc16` (required), `mode`, `timeout`, `route`, `leaderData`.
    static func node(_ a: JSON) throws(RESTAgentError) -> Node {
        let ext = try extAddress(a["extAddress"], "extAddress")
        var node = Node(extAddress: ext, rloc16: try rloc16(a["rloc16"], "rloc16"))
        if let mode = a["mode"] { node.mode = try Self.mode(mode, "mode") }
        if let timeout = a["timeout"] { node.childTimeout = try UInt32(number(timeout, "timeout", max: UInt64(UInt32.max))) }
        if let leader = a["leaderData"] { node.leaderData = try leaderData(leader) }
        if let route = a["route"] {
            guard let entries = route["routeData"]?.array, entries.count <= 63 else { throw unreadable("route has no routeData of at most 63 entries") }
            node.routes = try entries.map { (e) throws(RESTAgentError) in
                RouterLink(
                    routerID: UInt8(try number(e["routeId"], "routeId", max: 62)),
                    linkQualityIn: UInt8(try number(e["linkQualityIn"], "linkQualityIn", max: 3)),
                    linkQualityOut: UInt8(try number(e["linkQualityOut"], "linkQualityOut", max: 3)),
                    routeCost: UInt8(try number(e["routeCost"], "routeCost", max: 255)))
            }
        }
        return node
    }

    /// One entry of a router's `children`: a child of that router (`MeshChildEntry2Json`: its extended
    /// address, RLOC16, mode, timeout, and the parent's `age` and `linkMargin` of it).
    static func child(_ c: JSON, of parent: Node) throws(RESTAgentError) -> Node {
        guard c.object != nil else { throw unreadable("a child entry is not an object") }
        let rloc = try rloc16(c["rloc16"], "a child's rloc16")
        guard rloc & 0x1FF != 0, rloc & 0xFC00 == parent.rloc16 & 0xFC00 else {
            throw unreadable("child \(hex16(rloc)) is no child of router \(hex16(parent.rloc16))")
        }
        var node = Node(extAddress: try extAddress(c["extAddress"], "a child's extAddress"), rloc16: rloc)
        node.mode = try mode(c, "a child's mode")
        if let timeout = c["timeout"] { node.childTimeout = try UInt32(number(timeout, "a child's timeout", max: UInt64(UInt32.max))) }
        if let age = c["age"] { node.age = try UInt32(number(age, "a child's age", max: UInt64(UInt32.max))) }
        if let margin = c["linkMargin"] { node.linkMargin = try UInt8(number(margin, "a child's linkMargin", max: 255)) }
        node.leaderData = parent.leaderData
        return node
    }

    private static func leaderData(_ l: JSON) throws(RESTAgentError) -> LeaderData {
        LeaderData(
            partitionID: UInt32(try number(l["partitionId"], "partitionId", max: UInt64(UInt32.max))),
            weighting: UInt8(try number(l["weighting"], "weighting", max: 255)),
            dataVersion: UInt8(try number(l["dataVersion"], "dataVersion", max: 255)),
            stableDataVersion: UInt8(try number(l["stableDataVersion"], "stableDataVersion", max: 255)),
            leaderRouterID: UInt8(try number(l["leaderRouterId"], "leaderRouterId", max: 62)))
    }

    /// `rxOnWhenIdle`, `fullThreadDevice`, `fullNetworkData` of `m`.
    private static func mode(_ m: JSON, _ what: String) throws(RESTAgentError) -> Mode {
        guard let rx = m["rxOnWhenIdle"]?.bool, let ftd = m["fullThreadDevice"]?.bool, let nd = m["fullNetworkData"]?.bool else {
            throw unreadable("\(what) lacks rxOnWhenIdle, fullThreadDevice or fullNetworkData")
        }
        return Mode(rxOnWhenIdle: rx, fullThreadDevice: ftd, fullNetworkData: nd)
    }

    /// 16 hex digits.
    static func extAddress(_ value: JSON?, _ what: String) throws(RESTAgentError) -> UInt64 {
        guard let text = value?.string, text.utf8.count == 16, text.allSatisfy(\.isHexDigit), let ext = UInt64(text, radix: 16) else {
            throw unreadable("\(what) is not 16 hex digits")
        }
        return ext
    }

    /// `0x` and 4 hex digits.
    static func rloc16(_ value: JSON?, _ what: String) throws(RESTAgentError) -> UInt16 {
        guard let text = value?.string, text.utf8.count == 6, text.hasPrefix("0x"), text.dropFirst(2).allSatisfy(\.isHexDigit),
            let rloc = UInt16(text.dropFirst(2), radix: 16)
        else { throw unreadable("\(what) is not 0x and 4 hex digits") }
        return rloc
    }

    /// A whole number from 0 to `max` (cJSON writes whole numbers without a fraction; one with a zero
    /// fraction is taken too).
    static func number(_ value: JSON?, _ what: String, max: UInt64) throws(RESTAgentError) -> UInt64 {
        var n: UInt64?
        switch value {
        case .int(let i)?: n = UInt64(exactly: i)
        case .uint(let u)?: n = u
        case .double(let d)? where d.isFinite && d >= 0 && d < 1.8e19 && d == d.rounded(): n = UInt64(d)
        default: n = nil
        }
        guard let n, n <= max else { throw unreadable("\(what) is not a whole number from 0 to \(max)") }
        return n
    }

    private static func hex16(_ v: UInt16) -> String {
        let d = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - d.count) + d
    }

    static func unreadable(_ detail: String) -> RESTAgentError {
        RESTAgentError(.invalidResponse, "the network diagnostics are unreadable: \(detail)")
    }
}
