import HTTPMessages
import HTTPServer
import TBRFoundation

/// The answers of the simulated REST API, shaped as otbr-agent's (ot-br-posix `src/rest`, cpp-httplib):
/// JSON bodies written compact (the real agent pretty-prints with cJSON's tabs: clients parse, never
/// compare text), errors as `{"title", "status", "detail"}`.
enum RESTAnswer {
    /// The headers the real agent's server adds to every answer (`set_default_headers`).
    static let defaultHeaders: [String: String] = [
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "DELETE, GET, OPTIONS, POST, PUT",
        "Access-Control-Allow-Headers":
            "Origin, Accept, X-Requested-With, Content-Type, Access-Control-Request-Method, Access-Control-Request-Headers",
    ]

    /// `application/json`.
    static let json = "application/json"
    /// `text/plain`.
    static let text = "text/plain"

    /// 200 with `value` as JSON.
    static func ok(_ value: JSON) -> HTTPServerResponse {
        HTTPServerResponse(status: 200, contentType: json, body: Array(value.serialized.utf8))
    }

    /// `status` with no body (200 after a write, 204 for no dataset).
    static func empty(_ status: Int = 200) -> HTTPServerResponse { HTTPServerResponse(status: status) }

    /// An error as the agent's error handler writes every status of 400 or more: the reason phrase as
    /// `title`, the status, and `detail` (empty except where cpp-httplib's routing refuses a method).
    static func problem(_ status: Int, detail: String = "", headers: [String: String] = [:]) -> HTTPServerResponse {
        let body: JSON = ["title": .string(reasonPhrase(status)), "status": JSON(status), "detail": .string(detail)]
        return HTTPServerResponse(status: status, contentType: json, headers: headers, body: Array(body.serialized.utf8))
    }

    /// cpp-httplib's reason phrase for `status` (`status_message`), for the statuses the API answers.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 409: "Conflict"
        case 413: "Payload Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Unknown"
        }
    }

    /// A JSON number's value (cJSON's `valuedouble`); nil for anything else.
    static func number(_ value: JSON) -> Double? {
        switch value {
        case .int(let i): Double(i)
        case .uint(let u): Double(u)
        case .double(let d): d
        default: nil
        }
    }

    /// A JSON string body as cJSON reads it (`JsonString2String`); nil when the body is not one.
    static func jsonString(_ body: [UInt8]) -> String? {
        (try? JSON(parsing: String(decoding: body, as: UTF8.self)))?.string
    }

    /// `/.well-known/thread/br-rest`: the API's version, its base and its links, as ot-br-posix's static
    /// description lists them (`rest_web_server.cpp`, `WellKnownThreadGetHandler`).
    static let wellKnown: JSON = [
        "api": ["version": "0.5.0", "base": "/api/"],
        "links": [
            ["href": "/.well-known/thread/br-rest", "rel": "self", "type": ["application/json"]],
            ["href": "/api/node", "rel": "node", "type": ["application/vnd.api+json"]],
            ["href": "/api/actions", "rel": "task", "type": ["application/vnd.api+json"]],
            ["href": "/api/devices", "rel": "device", "type": ["application/vnd.api+json"]],
            ["href": "/api/diagnostics", "rel": "diagnostic", "type": ["application/vnd.api+json"]],
        ],
    ]
}
