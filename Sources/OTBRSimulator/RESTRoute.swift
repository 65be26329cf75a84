/// The paths otbr-agent's REST server registers that the simulator serves, and the methods each is
/// registered for (`RestWebServer::RestWebServer` in ot-br-posix's `rest_web_server.cpp`).
///
/// cpp-httplib routes by method *and* path: a path asked with a method it is not registered for is
/// not found (404), like an unknown path. The agent's error handler then turns any method but GET,
/// POST, PUT, DELETE and OPTIONS into 405 (`"detail": "method not supported"`, `Allow`); `HEAD` is
/// served by a `GET` route, without the body, and is 405 elsewhere.
enum RESTRoute: Hashable, Sendable {
    case node, borderAgentID, state, extendedAddress, networkName, rloc16, leaderData, routerCount, extendedPANID, rloc
    case activeDataset, pendingDataset
    case epskcState, epskcKey
    case wellKnown
    /// The `/api/` collections (`rest_web_server.cpp`: `/api/actions[/:id]`, `/api/devices[/:id]`,
    /// `/api/diagnostics[/:id]`, `/api/node`).
    case actions, action(String), devices, device(String), diagnostics, diagnostic(String), apiNode

    /// The methods the agent's error handler leaves alone; any other that is not served gets 405.
    static let routedMethods: Set<String> = ["GET", "POST", "PUT", "DELETE", "OPTIONS"]
    /// The `Allow` header of that 405.
    static let allowHeader = "GET, POST, PUT, DELETE, OPTIONS"

    /// The route of `path`; nil for a path the agent does not register (or, without ePSKc, the ePSKc paths).
    init?(path: String, epskcBuiltIn: Bool) {
        switch path {
        case "/node": self = .node
        case "/node/ba-id": self = .borderAgentID
        case "/node/state": self = .state
        case "/node/ext-address": self = .extendedAddress
        case "/node/network-name": self = .networkName
        case "/node/rloc16": self = .rloc16
        case "/node/leader-data": self = .leaderData
        case "/node/num-of-router": self = .routerCount
        case "/node/ext-panid": self = .extendedPANID
        case "/node/rloc": self = .rloc
        case "/node/dataset/active": self = .activeDataset
        case "/node/dataset/pending": self = .pendingDataset
        case "/node/ba-epskc/state" where epskcBuiltIn: self = .epskcState
        case "/node/ba-epskc/key" where epskcBuiltIn: self = .epskcKey
        case "/.well-known/thread/br-rest": self = .wellKnown
        case "/api/actions": self = .actions
        case "/api/devices": self = .devices
        case "/api/diagnostics": self = .diagnostics
        case "/api/node": self = .apiNode
        default:
            // cpp-httplib's `:id` matches one non-empty path segment.
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4, parts[0].isEmpty, parts[1] == "api", !parts[3].isEmpty else { return nil }
            switch parts[2] {
            case "actions": self = .action(parts[3])
            case "devices": self = .device(parts[3])
            case "diagnostics": self = .diagnostic(parts[3])
            default: return nil
            }
        }
    }

    /// The methods registered for this path (`HEAD` follows `GET`).
    var methods: Set<String> {
        switch self {
        case .node: ["GET", "DELETE"]
        case .state, .activeDataset, .pendingDataset, .epskcState: ["GET", "PUT", "OPTIONS"]
        case .epskcKey: ["GET", "POST", "DELETE", "OPTIONS"]
        case .wellKnown: ["GET", "OPTIONS"]
        case .borderAgentID, .extendedAddress, .networkName, .rloc16, .leaderData, .routerCount, .extendedPANID, .rloc: ["GET"]
        case .actions: ["GET", "POST", "DELETE", "OPTIONS"]
        case .devices, .diagnostics: ["GET", "DELETE", "OPTIONS"]
        case .action, .device, .diagnostic: ["GET", "DELETE"]
        case .apiNode: ["GET"]
        }
    }
}
