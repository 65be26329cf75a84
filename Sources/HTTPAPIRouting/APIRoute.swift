/// What a request to the HTTPS API asks for, read from its method and path alone (pure, fuzzed with the
/// body decoders: `fuzz/run.sh api`). Every route is under `/api/v1/`; path segments are
/// percent-decoded (a router id or structure name may hold any character).
public enum APIRoute: Hashable, Sendable {
    case routers
    case router(String)
    case activateEpskc(String)
    case deactivateEpskc(String)
    case structures
    case policy(String)
    case setPolicy(String)
    case events
    case openAPI

    /// The scope a token needs for this route: the one place the HTTPS API decides authorization.
    /// `read` is what D-Bus group `tbrd` may call, `admin` what `tbrd-admin` may; `epskc` adds the two
    /// ePSKc writes to `read`.
    public var scope: APIScope {
        switch self {
        case .routers, .router, .structures, .policy, .events, .openAPI: .read
        case .activateEpskc, .deactivateEpskc: .epskc
        case .setPolicy: .admin
        }
    }

    /// Whether the route changes something (an `Origin` other than the server's own is refused).
    public var isWrite: Bool {
        switch self {
        case .activateEpskc, .deactivateEpskc, .setPolicy: true
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
        switch segments.count {
        case 1:
            switch segments[0] {
            case "routers": return on(["GET": .routers])
            case "structures": return on(["GET": .structures])
            case "events": return on(["GET": .events])
            case "openapi.json": return on(["GET": .openAPI])
            default: return .failure(.notFound)
            }
        case 2 where segments[0] == "routers":
            return on(["GET": .router(segments[1])])
        case 3 where segments[0] == "routers" && segments[2] == "epskc":
            return on(["POST": .activateEpskc(segments[1]), "DELETE": .deactivateEpskc(segments[1])])
        case 3 where segments[0] == "structures" && segments[2] == "policy":
            return on(["GET": .policy(segments[1]), "PUT": .setPolicy(segments[1])])
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
