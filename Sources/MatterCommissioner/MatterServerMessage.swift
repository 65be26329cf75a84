import TBRFoundation

/// One message from python-matter-server (its WebSocket API, schema 11): the server information sent
/// bare on connect, a command's result or error, or an event.
enum MatterServerMessage: Hashable, Sendable {
    /// `{"message_id", "result"}`.
    case result(id: String, JSON)
    /// `{"message_id", "error_code", "details"}`.
    case error(id: String, code: Int, details: String)
    /// `{"event", "data"}`.
    case event(name: String, data: JSON)
    /// The bare object sent on connect (`fabric_id`, `schema_version`, `thread_credentials_set`, …).
    case serverInfo(JSON)

    /// Reads one text message.
    /// - Throws: ``CommissionerError`` `invalidResponse` for text that is not a JSON object.
    init(text: String) throws(CommissionerError) {
        let value: JSON
        do {
            value = try JSON(parsing: text)
        } catch {
            throw CommissionerError(.invalidResponse, "python-matter-server sent a message that is not JSON (\(error.description))")
        }
        guard case .object(let object) = value else {
            throw CommissionerError(.invalidResponse, "python-matter-server sent a message that is not a JSON object")
        }
        if let id = object["message_id"] {
            let key = id.string ?? id.int64.map(String.init) ?? ""
            if let code = object["error_code"]?.int64 {
                self = .error(id: key, code: Int(code), details: object["details"]?.string ?? "")
            } else {
                self = .result(id: key, object["result"] ?? .null)
            }
        } else if let name = object["event"]?.string {
            self = .event(name: name, data: object["data"] ?? .null)
        } else {
            self = .serverInfo(value)
        }
    }

    /// A command as the server takes it: `{"message_id", "command", "args"}`.
    static func command(id: String, _ name: String, _ args: JSONObject) -> String {
        var members: [(String, JSON)] = [("message_id", .string(id)), ("command", .string(name))]
        if !args.isEmpty { members.append(("args", .object(args))) }
        return JSON.object(JSONObject(members)).serialized
    }

    /// What python-matter-server's `error_code` means, in words.
    static func meaning(of code: Int) -> String {
        switch code {
        case 0: "unknown error"
        case 1: "commissioning failed"
        case 2: "interview failed"
        case 3: "node not ready"
        case 4: "node not resolving"
        case 5: "node does not exist"
        case 6: "version mismatch"
        case 7: "SDK stack error"
        case 8: "invalid arguments"
        case 9: "invalid command"
        case 10, 11: "update error"
        default: "error"
        }
    }
}
