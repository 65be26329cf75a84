import FoundationEssentials
import HTTPAPIRouting

/// The OpenAPI 3.1 description of the HTTPS API, served at `/api/v1/openapi.json`. It is built from one
/// table, ``operations``, whose every row names the ``APIRoute`` it documents: the scope it states is
/// that route's own, and `HTTPAPITests` checks that each row's path and method match exactly that route,
/// so the document and the routes cannot drift.
enum OpenAPIDocument {
    /// One documented operation.
    struct Operation: Sendable {
        /// The path with `{id}`, `{name}`, `{router}`, `{room}` and `{session}` placeholders.
        var path: String
        /// Lower case.
        var method: String
        /// The route this operation is, with `wpan0`, `Home`, `Kitchen` and `0123456789abcdef` for the placeholders.
        var route: APIRoute
        var summary: String
        /// The request body's schema (JSON), if any.
        var body: String? = nil
        /// The success status and its schema (JSON; nil for none, or a media type other than JSON).
        var status: Int = 200
        var response: String? = nil
        var mediaType: String = "application/json"
    }

    private static func ref(_ name: String) -> String { ##"{"$ref": "#/components/schemas/\##(name)"}"## }
    private static func array(_ items: String) -> String { #"{"type": "array", "items": \#(items)}"# }
    private static let strings = array(#"{"type": "string"}"#)

    /// Every operation of the API.
    static let operations: [Operation] = [
        Operation(path: "/api/v1/routers", method: "get", route: .routers, summary: "Every border router (tbrctl --json list)", response: array(ref("RouterListing"))),
        Operation(path: "/api/v1/routers/{id}", method: "get", route: .router("wpan0"), summary: "One border router (tbrctl --json info)", response: ref("RouterInfo")),
        Operation(path: "/api/v1/routers/{id}/mesh", method: "get", route: .mesh("wpan0"), summary: "The mesh around the router (tbrctl --json mesh)", response: ref("Mesh")),
        Operation(
            path: "/api/v1/routers/{id}/mesh.svg", method: "get", route: .meshPicture("wpan0"),
            summary: "The mesh as an SVG picture (tbrctl mesh --format dot, drawn by Graphviz on the host; 503 without Graphviz)",
            mediaType: "image/svg+xml"),
        Operation(
            path: "/api/v1/routers/{id}/doctor", method: "get", route: .doctor("wpan0"),
            summary: "The doctor's checks of the router and this host (tbrctl --json doctor)", response: ref("Doctor")),
        Operation(
            path: "/api/v1/routers/{id}/dataset", method: "get", route: .dataset("wpan0"),
            summary: "The Active dataset (tbrctl --json dataset show); ?pending=true for the Pending one; the network key and PSKc are redacted unless ?revealSecrets=true",
            response: #"{"type": "object"}"#),
        Operation(
            path: "/api/v1/routers/{id}/join", method: "post", route: .join("wpan0"),
            summary: "Join a network (tbrctl --json network join): the router, or its whole mesh through a Pending dataset",
            body: #"{"type": "object", "required": ["dataset"], "properties": {"dataset": {"type": "string", "description": "Active dataset TLVs, hex"}, "thisRouterOnly": {"type": "boolean"}}}"#,
            response: ref("JoinResult")),
        Operation(
            path: "/api/v1/routers/{id}/leave", method: "post", route: .leave("wpan0"), summary: "Leave the network (tbrctl --json network leave)",
            response: #"{"type": "object", "properties": {"router": {"type": "string"}, "status": {"type": "string"}}}"#),
        Operation(
            path: "/api/v1/routers/{id}/epskc", method: "post", route: .activateEpskc("wpan0"),
            summary: "Start an ePSKc (tbrctl --json epskc activate)",
            body: #"{"type": "object", "required": ["durationSeconds"], "properties": {"durationSeconds": {"type": "integer", "minimum": 1, "maximum": 600}}}"#,
            response: ref("EpskcActivation")),
        Operation(path: "/api/v1/routers/{id}/epskc", method: "delete", route: .deactivateEpskc("wpan0"), summary: "Stop the ePSKc", status: 204),
        Operation(path: "/api/v1/structures", method: "get", route: .structures, summary: "Every structure (tbrctl --json structure list)", response: array(ref("Structure"))),
        Operation(
            path: "/api/v1/structures", method: "post", route: .createStructure, summary: "Create a structure (tbrctl --json structure create)",
            body: #"{"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}"#, status: 201, response: ref("Structure")),
        Operation(
            path: "/api/v1/structures/{name}", method: "get", route: .structure("Home"), summary: "One structure (tbrctl --json structure show)",
            response: ref("Structure")),
        Operation(
            path: "/api/v1/structures/{name}", method: "delete", route: .deleteStructure("Home"),
            summary: "Delete a structure without routers (tbrctl --json structure delete)",
            response: #"{"type": "object", "properties": {"deleted": {"type": "string"}}}"#),
        Operation(
            path: "/api/v1/structures/{name}/routers/{router}", method: "put", route: .addRouter(structure: "Home", router: "wpan0"),
            summary: "Put a router in the structure (tbrctl --json structure add)", response: ref("Structure")),
        Operation(
            path: "/api/v1/structures/{name}/routers/{router}", method: "delete", route: .removeRouter(structure: "Home", router: "wpan0"),
            summary: "Take a router out of the structure (tbrctl --json structure remove)", response: ref("Structure")),
        Operation(
            path: "/api/v1/structures/{name}/policy", method: "get", route: .policy("Home"),
            summary: "The internet-access policy (tbrctl --json structure policy)", response: ref("Policy")),
        Operation(
            path: "/api/v1/structures/{name}/policy", method: "put", route: .setPolicy("Home"),
            summary: "Set the internet-access option; answers once the routers' states are about it",
            body: #"{"type": "object", "required": ["internetAccessOption"], "properties": {"internetAccessOption": {"type": "string", "enum": ["unspecified", "none", "all", "nat64Only", "dhcpv6PdOnly"]}}}"#,
            response: ref("Policy")),
        Operation(
            path: "/api/v1/structures/{name}/rooms", method: "get", route: .rooms("Home"), summary: "The rooms (tbrctl --json structure room list)",
            response: strings),
        Operation(
            path: "/api/v1/structures/{name}/rooms/{room}", method: "put", route: .addRoom(structure: "Home", room: "Kitchen"),
            summary: "Add a room; answers the rooms (tbrctl --json structure room add)", response: strings),
        Operation(
            path: "/api/v1/structures/{name}/rooms/{room}", method: "delete", route: .removeRoom(structure: "Home", room: "Kitchen"),
            summary: "Remove an empty room; answers the rooms (tbrctl --json structure room remove)", response: strings),
        Operation(
            path: "/api/v1/structures/{name}/networks", method: "get", route: .networks("Home"),
            summary: "The structure's network directory (tbrctl --json network list --structure); no secrets", response: array(ref("Network"))),
        Operation(
            path: "/api/v1/structures/{name}/nodes", method: "get", route: .nodes("Home"),
            summary: "The structure's Matter nodes (tbrctl --json matter nodes --structure)", response: array(ref("MatterNode"))),
        Operation(
            path: "/api/v1/structures/{name}/commissioning", method: "post", route: .commission("Home"),
            summary: "Commission Matter devices into the structure, one at a time; every stage follows as a commissioning event on /api/v1/events",
            body: #"{"type": "object", "required": ["codes"], "properties": {"codes": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 32}, "network": {"type": "string"}, "onNetwork": {"type": "boolean"}, "name": {"type": "string"}, "room": {"type": "string"}}}"#,
            status: 202, response: ref("Commissioning")),
        Operation(
            path: "/api/v1/structures/{name}/commissioning/{session}", method: "delete",
            route: .cancelCommissioning(structure: "Home", session: "0123456789abcdef"),
            summary: "Cancel a commissioning session: its queued codes fail at queued; the one being commissioned finishes", status: 204),
        Operation(
            path: "/api/v1/events", method: "get", route: .events,
            summary: "Server-Sent Events: epskc (id = journal sequence; Last-Event-ID resumes), router, policy, commissioning, recovery, problem, overflow",
            mediaType: "text/event-stream"),
        Operation(
            path: "/api/v1/health", method: "get", route: .health, summary: "The open problems (tbrctl --json health)",
            response: array(ref("HealthProblem"))),
        Operation(
            path: "/api/v1/health/history", method: "get", route: .healthHistory,
            summary: "Problems open at some moment in the last ?seconds= (all kept without) and what changed about each router and Matter node, of ?router= only (host: the host's), oldest first",
            response: ref("HealthHistory")),
        Operation(
            path: "/api/v1/metrics", method: "get", route: .metrics,
            summary: "Prometheus' text exposition format: routers, roles, partitions, counts, link quality, NAT64, open problems, ePSKc ends, tbrd's memory and calls",
            mediaType: "text/plain"),
        Operation(path: "/api/v1/openapi.json", method: "get", route: .openAPI, summary: "This document"),
    ]

    private static let schemas = ##"""
        "Problem": {"type": "object", "properties": {"type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"}, "exitStatus": {"type": "integer"}}},
        "RouterListing": {"type": "object", "properties": {"id": {"type": "string"}, "interface": {"type": "string"}, "transport": {"type": "string"}, "address": {"type": "string"}, "online": {"type": "boolean"}, "role": {"type": ["string", "null"]}, "networkName": {"type": ["string", "null"]}, "extPanId": {"type": ["string", "null"]}, "epskcSupported": {"type": "boolean"}}},
        "RouterInfo": {"type": "object", "properties": {"id": {"type": "string"}, "transport": {"type": "string"}, "address": {"type": "string"}, "borderAgentId": {"type": ["string", "null"]}, "basicInformation": {"type": "object"}, "capabilities": {"type": "object"}, "network": {"type": "object"}}},
        "Mesh": {"type": "object", "properties": {"router": {"type": "string"}, "partitionId": {"type": ["integer", "null"]}, "leaderRouterId": {"type": ["integer", "null"]}, "networkData": {"type": "object"}, "nodes": {"type": "array", "items": {"type": "object"}}, "horizon": {"type": ["string", "null"]}}},
        "Doctor": {"type": "object", "properties": {"router": {"type": ["string", "null"]}, "checks": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}, "status": {"type": "string", "enum": ["pass", "warn", "fail", "unsupported"]}, "message": {"type": "string"}, "fix": {"type": "string"}}}}}},
        "JoinResult": {"type": "object", "properties": {"status": {"$ref": "#/components/schemas/Status"}, "migrationDelaySeconds": {"type": "integer"}}},
        "Status": {"type": "string", "enum": ["success", "busy", "notSupported", "invalidState", "invalidArgument", "failed"]},
        "EpskcActivation": {"type": "object", "properties": {"status": {"$ref": "#/components/schemas/Status"}, "epskc": {"type": ["string", "null"]}, "validDurationSeconds": {"type": "integer"}}},
        "Structure": {"type": "object", "properties": {"name": {"type": "string"}, "routers": {"type": "array", "items": {"type": "string"}}, "settings": {"type": "object"}, "policy": {"type": "array"}}},
        "Policy": {"type": "object", "properties": {"structure": {"type": "string"}, "internetAccessOption": {"type": "string"}, "routers": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}, "state": {"type": "string"}, "detail": {"type": "string"}}}}}},
        "Network": {"type": "object", "properties": {"structure": {"type": "string"}, "extPanId": {"type": "string"}, "networkName": {"type": "string"}, "channel": {"type": ["integer", "null"]}, "activeTimestamp": {"type": ["integer", "null"]}, "source": {"type": "string"}, "sourceDetail": {"type": "string"}, "lastSeen": {"type": "string"}, "routers": {"type": "array", "items": {"type": "string"}}, "credentials": {"type": "boolean"}, "preferred": {"type": "boolean"}, "stale": {"type": "boolean"}}},
        "MatterNode": {"type": "object", "properties": {"structure": {"type": "string"}, "nodeId": {"type": "integer"}, "vendorId": {"type": ["integer", "null"]}, "productId": {"type": ["integer", "null"]}, "commissionedAt": {"type": "string"}, "name": {"type": ["string", "null"]}, "room": {"type": ["string", "null"]}}},
        "HealthHistory": {"type": "object", "properties": {"problems": {"type": "array", "items": {"$ref": "#/components/schemas/HealthProblem"}}, "samples": {"type": "array", "items": {"$ref": "#/components/schemas/HealthSample"}}}},
        "HealthSample": {"type": "object", "properties": {"at": {"type": "string"}, "subject": {"type": "string"}, "state": {"type": "string"}, "partition": {"type": "integer"}, "routers": {"type": "integer"}, "children": {"type": "integer"}}},
        "HealthProblem": {"type": "object", "properties": {"id": {"type": "integer"}, "subject": {"type": "string"}, "check": {"type": "string"}, "message": {"type": "string"}, "fix": {"type": "string"}, "openedAt": {"type": "string"}, "closedAt": {"type": ["string", "null"]}}},
        "Commissioning": {"type": "object", "properties": {"structure": {"type": "string"}, "session": {"type": "string"}, "payloads": {"type": "array", "items": {"type": "object", "properties": {"payload": {"type": "integer"}, "payloadId": {"type": "string"}}}}}}
        """##

    /// The document.
    static let text: String = {
        var paths: [String: [String]] = [:]
        var order: [String] = []
        for op in operations {
            if paths[op.path] == nil { order.append(op.path) }
            var parameters: [String] = []
            for placeholder in ["id", "name", "router", "room", "session"] where op.path.contains("{\(placeholder)}") {
                parameters.append(#"{"name": "\#(placeholder)", "in": "path", "required": true, "schema": {"type": "string"}}"#)
            }
            if op.route == .events {
                parameters.append(#"{"name": "Last-Event-ID", "in": "header", "required": false, "schema": {"type": "string"}}"#)
            }
            var fields = [
                #""summary": \#(quoted(op.summary + "; scope " + op.route.scope.rawValue))"#,
                #""parameters": [\#(parameters.joined(separator: ", "))]"#,
            ]
            if let body = op.body { fields.append(#""requestBody": {"required": true, "content": {"application/json": {"schema": \#(body)}}}"#) }
            let content = op.status == 204 ? "" : #", "content": {"\#(op.mediaType)": {\#(op.response.map { #""schema": \#($0)"# } ?? "")}}"#
            fields.append(
                ##""responses": {"\##(op.status)": {"description": "done"\##(content)}, "default": {"description": "a problem", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}}"##)
            paths[op.path, default: []].append(#""\#(op.method)": {\#(fields.joined(separator: ", "))}"#)
        }
        let pathText = order.map { #"    \#(quoted($0)): {\#(paths[$0]!.joined(separator: ", "))}"# }.joined(separator: ",\n")
        return """
            {
              "openapi": "3.1.0",
              "info": {"title": "tbrd", "version": "1", "description": "Thread Border Router management (docs/http-api.md). Every request needs Authorization: Bearer TOKEN (tbrctl api token create); errors are RFC 9457 problems whose exitStatus is tbrctl's."},
              "components": {"securitySchemes": {"token": {"type": "http", "scheme": "bearer"}}, "schemas": {
            \(schemas)
              }},
              "security": [{"token": []}],
              "paths": {
            \(pathText)
              }
            }
            """
    }()

    private static func quoted(_ text: String) -> String {
        let encoded: Data = (try? JSONEncoder().encode(text)) ?? Data()
        return String(decoding: encoded, as: UTF8.self)
    }
}
