public import TBRCore
/// What a request to the HTTPS API asks for, read from its method and path alone (pure, fuzzed with the
/// body decoders: `fuzz/run.sh api`). Every route is under `/api/v1/`; path segments are
/// percent-decoded (a router id or structure name may hold any character).
public enum APIRoute: Hashable, Sendable {
    case routers
    case router(String)
    case mesh(String)
    /// The mesh as an SVG picture (Graphviz).
    case meshPicture(String)
    case doctor(String)
    case dataset(String)
    case join(String)
    case leave(String)
    case activateEpskc(String)
    case deactivateEpskc(String)
    case structures
    case createStructure
    case structure(String)
    case deleteStructure(String)
    /// `PUT /structures/{name}/routers/{id}`: the router joins the structure.
    case addRouter(structure: String, router: String)
    case removeRouter(structure: String, router: String)
    case policy(String)
    case setPolicy(String)
    case rooms(String)
    case addRoom(structure: String, room: String)
    case removeRoom(structure: String, room: String)
    case networks(String)
    case nodes(String)
    case commission(String)
    /// `DELETE /structures/{name}/commissioning/{session}`: queued codes are dropped.
    case cancelCommissioning(structure: String, session: String)
    case events
    case openAPI
    /// `GET /health`: the open problems.
    case health
    /// `GET /health/history?seconds=S&router=R`: problems open at some moment in the last S seconds.
    case healthHistory
    /// `GET /metrics`: Prometheus' text exposition format.
    case metrics

    /// The scope a token needs for this route: the one place the HTTPS API decides authorization.
    /// `read` is what D-Bus group `tbrd` may call, `admin` what `tbrd-admin` may; `epskc` adds the two
    /// ePSKc writes to `read`.
    public var scope: APIScope {
        switch self {
        case .routers, .router, .mesh, .meshPicture, .doctor, .structures, .structure, .policy, .rooms, .networks, .nodes, .events,
            .openAPI, .health, .healthHistory, .metrics:
            .read
        case .activateEpskc, .deactivateEpskc: .epskc
        case .dataset, .join, .leave, .createStructure, .deleteStructure, .addRouter, .removeRouter, .setPolicy, .addRoom, .removeRoom,
            .commission, .cancelCommissioning:
            .admin
        }
    }

    /// Whether the route changes something (an `Origin` other than the server's own is refused).
    public var isWrite: Bool {
        switch self {
        case .join, .leave, .activateEpskc, .deactivateEpskc, .createStructure, .deleteStructure, .addRouter, .removeRouter, .setPolicy,
            .addRoom, .removeRoom, .commission, .cancelCommissioning:
            true
        default: false
        }
    }

    /// Why a request has no route.
    public enum Failure: Error, Hashable, Sendable {
        /// No such resource (404).
        case notFound
        /// The resource exists, not with this method (405); the methods it has.
        case methodNotAllowed(allowed: [String])
        /// A path segment that does not decode (400).
        case badPath(String)
    }

    /// The route of `method` on `path`.
    public static func match(method: String, path: String) -> Result<APIRoute, Failure> {
        let raw = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard raw.count >= 2, raw.first == "api", raw.dropFirst().first == "v1" else { return .failure(.notFound) }
        var segments: [String] = []
        for piece in raw.dropFirst(2) {
            guard let decoded = percentDecoded(piece), !decoded.isEmpty else {
                return .failure(piece.isEmpty ? .notFound : .badPath("a path segment is not valid percent-encoded UTF-8"))
            }
            segments.append(decoded)
        }
        func on(_ table: [String: APIRoute]) -> Result<APIRoute, Failure> {
            if let route = table[method] { return .success(route) }
            return .failure(.methodNotAllowed(allowed: table.keys.sorted()))
        }
        switch (segments.count, segments.first) {
        case (1, "routers"): return on(["GET": .routers])
        case (1, "structures"): return on(["GET": .structures, "POST": .createStructure])
        case (1, "events"): return on(["GET": .events])
        case (1, "openapi.json"): return on(["GET": .openAPI])
        case (1, "health"): return on(["GET": .health])
        case (1, "metrics"): return on(["GET": .metrics])
        case (2, "health") where segments[1] == "history": return on(["GET": .healthHistory])
        case (2, "routers"): return on(["GET": .router(segments[1])])
        case (2, "structures"): return on(["GET": .structure(segments[1]), "DELETE": .deleteStructure(segments[1])])
        case (3, "routers"):
            let id = segments[1]
            switch segments[2] {
            case "mesh": return on(["GET": .mesh(id)])
            case "mesh.svg": return on(["GET": .meshPicture(id)])
            case "doctor": return on(["GET": .doctor(id)])
            case "dataset": return on(["GET": .dataset(id)])
            case "join": return on(["POST": .join(id)])
            case "leave": return on(["POST": .leave(id)])
            case "epskc": return on(["POST": .activateEpskc(id), "DELETE": .deactivateEpskc(id)])
            default: return .failure(.notFound)
            }
        case (3, "structures"):
            let name = segments[1]
            switch segments[2] {
            case "policy": return on(["GET": .policy(name), "PUT": .setPolicy(name)])
            case "rooms": return on(["GET": .rooms(name)])
            case "networks": return on(["GET": .networks(name)])
            case "nodes": return on(["GET": .nodes(name)])
            case "commissioning": return on(["POST": .commission(name)])
            default: return .failure(.notFound)
            }
        case (4, "structures") where segments[2] == "routers":
            return on(["PUT": .addRouter(structure: segments[1], router: segments[3]), "DELETE": .removeRouter(structure: segments[1], router: segments[3])])
        case (4, "structures") where segments[2] == "commissioning":
            return on(["DELETE": .cancelCommissioning(structure: segments[1], session: segments[3])])
        case (4, "structures") where segments[2] == "rooms":
            return on(["PUT": .addRoom(structure: segments[1], room: segments[3]), "DELETE": .removeRoom(structure: segments[1], room: segments[3])])
        default:
            return .failure(.notFound)
        }
    }

    /// `%XX` sequences decoded; nil when one is malformed or the result is not UTF-8.
    public static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.popFirst().flatMap(hexValue), let low = utf8.popFirst().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
