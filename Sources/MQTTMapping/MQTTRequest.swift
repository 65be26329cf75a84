public import TBRFoundation

/// A request on `<base>/bridge/request/<operation>` (zigbee2mqtt's convention; docs/mqtt.md,
/// "Requests"), decoded from its operation and JSON body. Pure; fuzzed: `fuzz/run.sh mqtt`.
public enum MQTTRequest: Sendable, Hashable {
    case routers
    case router(String)
    case structures
    case structure(String)
    case setPolicy(structure: String, option: String)
    case activateEpskc(router: String, seconds: Int)
    case deactivateEpskc(router: String)
    case health
    // What only an admin token may do over HTTPS: off unless `mqtt-admin = yes`.
    case createStructure(String)
    case deleteStructure(String)
    case addRouter(structure: String, router: String)
    case removeRouter(structure: String, router: String)
    case addRoom(structure: String, room: String)
    case removeRoom(structure: String, room: String)
    case join(router: String, dataset: String, thisRouterOnly: Bool)
    case leave(router: String)
    case commission(structure: String, codes: [String], network: String?, onNetwork: Bool, name: String?, room: String?)
    case cancelCommissioning(structure: String, session: String)

    /// Which setting lets a request through: none (reading, and setting a structure's internet access),
    /// `mqtt-admin`, or `mqtt-epskc`.
    public enum Permission: Sendable, Hashable { case always, admin, epskc }

    /// Every operation, its body's members (the required ones first) and what lets it through.
    public static let operations: [(name: String, members: String, permission: Permission)] = [
        ("routers", "", .always),
        ("router", "router", .always),
        ("structures", "", .always),
        ("structure", "structure", .always),
        ("structure/policy", "structure, internetAccessOption", .always),
        ("health", "", .always),
        ("epskc/activate", "router, durationSeconds", .epskc),
        ("epskc/deactivate", "router", .epskc),
        ("structure/create", "structure", .admin),
        ("structure/delete", "structure", .admin),
        ("structure/routers/add", "structure, router", .admin),
        ("structure/routers/remove", "structure, router", .admin),
        ("structure/rooms/add", "structure, room", .admin),
        ("structure/rooms/remove", "structure, room", .admin),
        ("router/join", "router, dataset; thisRouterOnly", .admin),
        ("router/leave", "router", .admin),
        ("matter/commission", "structure, codes; network, onNetwork, name, room", .admin),
        ("matter/cancel", "structure, session", .admin),
    ]

    /// The largest body read: a larger one is refused unread.
    public static let maximumBody = 64 * 1024

    /// What the setting it needs is.
    public var permission: Permission {
        switch self {
        case .routers, .router, .structures, .structure, .setPolicy, .health: .always
        case .activateEpskc, .deactivateEpskc: .epskc
        default: .admin
        }
    }

    /// The request `payload` makes of `operation`, and its `transaction` (echoed in the response; nil
    /// when the body has none or is not a JSON object). An empty payload is an empty object.
    public static func decode(operation: String, payload: [UInt8]) -> (request: Result<MQTTRequest, MQTTRequestError>, transaction: JSON?) {
        guard payload.count <= maximumBody else {
            return (.failure(.invalid("the body has \(payload.count) bytes; at most \(maximumBody) are read")), nil)
        }
        var body = JSONObject()
        if !payload.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            guard let text = String(validating: payload, as: UTF8.self) else { return (.failure(.invalid("the body is not UTF-8")), nil) }
            do throws(JSONParseError) {
                guard case .object(let object) = try JSON(parsing: text, duplicateKeys: .refused) else {
                    return (.failure(.invalid("the body is not a JSON object")), nil)
                }
                body = object
            } catch {
                if let key = error.duplicateKey { return (.failure(.invalid("the body has the key \(Quoted(key)) twice in one object")), nil) }
                return (.failure(.invalid("the body is not JSON: \(error)")), nil)
            }
        }
        let transaction = body["transaction"]
        do throws(MQTTRequestError) {
            return (.success(try request(operation, Body(body))), transaction)
        } catch {
            return (.failure(error), transaction)
        }
    }

    private static func request(_ operation: String, _ b: Body) throws(MQTTRequestError) -> MQTTRequest {
        switch operation {
        case "routers": return .routers
        case "router": return .router(try b.string("router"))
        case "structures": return .structures
        case "structure": return .structure(try b.string("structure"))
        case "structure/policy": return .setPolicy(structure: try b.string("structure"), option: try b.string("internetAccessOption"))
        case "health": return .health
        case "epskc/activate": return .activateEpskc(router: try b.string("router"), seconds: try b.integer("durationSeconds"))
        case "epskc/deactivate": return .deactivateEpskc(router: try b.string("router"))
        case "structure/create": return .createStructure(try b.string("structure"))
        case "structure/delete": return .deleteStructure(try b.string("structure"))
        case "structure/routers/add": return .addRouter(structure: try b.string("structure"), router: try b.string("router"))
        case "structure/routers/remove": return .removeRouter(structure: try b.string("structure"), router: try b.string("router"))
        case "structure/rooms/add": return .addRoom(structure: try b.string("structure"), room: try b.string("room"))
        case "structure/rooms/remove": return .removeRoom(structure: try b.string("structure"), room: try b.string("room"))
        case "router/join":
            return .join(router: try b.string("router"), dataset: try b.string("dataset"), thisRouterOnly: try b.optionalBool("thisRouterOnly") ?? false)
        case "router/leave": return .leave(router: try b.string("router"))
        case "matter/commission":
            return .commission(
                structure: try b.string("structure"), codes: try b.strings("codes"), network: try b.optionalString("network"),
                onNetwork: try b.optionalBool("onNetwork") ?? false, name: try b.optionalString("name"), room: try b.optionalString("room"))
        case "matter/cancel": return .cancelCommissioning(structure: try b.string("structure"), session: try b.string("session"))
        default:
            throw .unknownOperation(
                "there is no operation \(Quoted(String(operation.prefix(100)))) (there are: \(operations.map(\.name).joined(separator: ", ")))")
        }
    }

    /// A body's members, read with a sentence for each that is missing or of the wrong type.
    private struct Body {
        let object: JSONObject
        init(_ object: JSONObject) { self.object = object }

        func string(_ key: String) throws(MQTTRequestError) -> String {
            guard let value = try optionalString(key) else { throw .invalid("\(key) is missing") }
            return value
        }

        func optionalString(_ key: String) throws(MQTTRequestError) -> String? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let text = value.string else { throw .invalid("\(key) is a string") }
            return text
        }

        func optionalBool(_ key: String) throws(MQTTRequestError) -> Bool? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let flag = value.bool else { throw .invalid("\(key) is true or false") }
            return flag
        }

        func integer(_ key: String) throws(MQTTRequestError) -> Int {
            guard let value = object[key], !value.isNull else { throw .invalid("\(key) is missing") }
            guard let number = value.int64, let int = Int(exactly: number) else { throw .invalid("\(key) is a whole number") }
            return int
        }

        func strings(_ key: String) throws(MQTTRequestError) -> [String] {
            guard let value = object[key], !value.isNull else { throw .invalid("\(key) is missing") }
            guard let array = value.array else { throw .invalid("\(key) is a list of strings") }
            var out: [String] = []
            for element in array {
                guard let text = element.string else { throw .invalid("\(key) is a list of strings") }
                out.append(text)
            }
            return out
        }
    }
}

/// Why a request was refused before tbrd's core saw it.
public enum MQTTRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is not what the operation takes (one sentence says what).
    case invalid(String)
    /// No such operation.
    case unknownOperation(String)

    public var description: String {
        switch self {
        case .invalid(let why), .unknownOperation(let why): why
        }
    }
}
