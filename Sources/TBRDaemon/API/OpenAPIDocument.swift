import HTTPAPIRouting
/// The OpenAPI 3.1 description of the HTTPS API, served at `/api/v1/openapi.json`. `HTTPAPITests` checks
/// that its paths and methods are exactly the routes ``APIRoute`` knows, so the two cannot drift.
enum OpenAPIDocument {
    /// Every path with its methods, as the document lists them (what the test compares).
    static let operations: [(path: String, methods: [String])] = [
        ("/api/v1/routers", ["get"]),
        ("/api/v1/routers/{id}", ["get"]),
        ("/api/v1/routers/{id}/epskc", ["post", "delete"]),
        ("/api/v1/structures", ["get"]),
        ("/api/v1/structures/{name}/policy", ["get", "put"]),
        ("/api/v1/events", ["get"]),
        ("/api/v1/openapi.json", ["get"]),
    ]

    static let text = #"""
        {
          "openapi": "3.1.0",
          "info": {"title": "tbrd", "version": "1", "description": "Thread Border Router management (docs/http-api.md). Every request needs Authorization: Bearer TOKEN (tbrctl api token create); errors are RFC 9457 problems whose exitStatus is tbrctl's."},
          "components": {
            "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
            "schemas": {
              "Problem": {"type": "object", "properties": {"type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"}, "exitStatus": {"type": "integer"}}},
              "RouterListing": {"type": "object", "properties": {"id": {"type": "string"}, "interface": {"type": "string"}, "transport": {"type": "string"}, "address": {"type": "string"}, "online": {"type": "boolean"}, "role": {"type": ["string", "null"]}, "networkName": {"type": ["string", "null"]}, "extPanId": {"type": ["string", "null"]}, "epskcSupported": {"type": "boolean"}}},
              "RouterInfo": {"type": "object", "properties": {"id": {"type": "string"}, "transport": {"type": "string"}, "address": {"type": "string"}, "borderAgentId": {"type": ["string", "null"]}, "basicInformation": {"type": "object"}, "capabilities": {"type": "object"}, "network": {"type": "object"}}},
              "EpskcActivation": {"type": "object", "properties": {"status": {"type": "string", "enum": ["success", "busy", "notSupported", "invalidState", "invalidArgument", "failed"]}, "epskc": {"type": ["string", "null"]}, "validDurationSeconds": {"type": "integer"}}},
              "Structure": {"type": "object", "properties": {"name": {"type": "string"}, "routers": {"type": "array", "items": {"type": "string"}}, "settings": {"type": "object"}, "policy": {"type": "array"}}},
              "Policy": {"type": "object", "properties": {"structure": {"type": "string"}, "internetAccessOption": {"type": "string", "enum": ["unspecified", "none", "all", "nat64Only", "dhcpv6PdOnly"]}, "routers": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}, "state": {"type": "string"}, "detail": {"type": "string"}}}}}}
            }
          },
          "security": [{"token": []}],
          "paths": {
            "/api/v1/routers": {"get": {"summary": "Every border router (tbrctl --json list); scope read", "responses": {"200": {"description": "routers", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/RouterListing"}}}}}}}},
            "/api/v1/routers/{id}": {"get": {"summary": "One border router (tbrctl --json info); scope read", "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": {"200": {"description": "the router", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RouterInfo"}}}}, "404": {"description": "no such router", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}}}},
            "/api/v1/routers/{id}/epskc": {
              "post": {"summary": "Start an ePSKc (tbrctl --json epskc activate); scope epskc", "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}], "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["durationSeconds"], "properties": {"durationSeconds": {"type": "integer", "minimum": 1, "maximum": 600}}}}}}, "responses": {"200": {"description": "how it went; the key on success", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/EpskcActivation"}}}}}},
              "delete": {"summary": "Stop the ePSKc; scope epskc", "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": {"204": {"description": "stopped"}}}
            },
            "/api/v1/structures": {"get": {"summary": "Every structure (tbrctl --json structure list); scope read", "responses": {"200": {"description": "structures", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Structure"}}}}}}}},
            "/api/v1/structures/{name}/policy": {
              "get": {"summary": "The internet-access policy (tbrctl --json structure policy); scope read", "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": {"200": {"description": "the policy", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Policy"}}}}}},
              "put": {"summary": "Set the internet-access option; answers once the routers' states are about it; scope admin", "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}], "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["internetAccessOption"], "properties": {"internetAccessOption": {"type": "string"}}}}}}, "responses": {"200": {"description": "the policy", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Policy"}}}}}}
            },
            "/api/v1/events": {"get": {"summary": "Server-Sent Events: epskc (id = journal sequence; Last-Event-ID resumes), router, policy, commissioning, overflow; scope read", "parameters": [{"name": "Last-Event-ID", "in": "header", "required": false, "schema": {"type": "string"}}], "responses": {"200": {"description": "the stream", "content": {"text/event-stream": {}}}}}},
            "/api/v1/openapi.json": {"get": {"summary": "This document; scope read", "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {}}}}}}
          }
        }
        """#
}
