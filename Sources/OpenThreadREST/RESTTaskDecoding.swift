import TBRFoundation

/// Reading the answers about `/api/actions` and `/api/devices` (ot-br-posix `src/rest/actions_list.cpp`,
/// `rest_devices_coll.cpp`; JSON:API documents). Untrusted bytes: every field is checked; fuzzed in
/// fuzz/RESTFuzz.swift with the other decoders.
enum RESTTaskDecoding {
    /// The most items read from one document.
    static let maximumItems = 1000

    /// What `GET /api/actions` says of one task.
    struct TaskState: Hashable, Sendable {
        var status: Status
        /// `relationships.result.data.id`: the diagnostics item it produced ("" for none); nil before a result.
        var result: String?

        var isFinished: Bool { status != .pending && status != .active }
    }

    /// A task's `attributes.status`, as ot-br-posix's `src/rest/openapi.yaml` lists them; any other text
    /// is refused by the decoder.
    enum Status: String, Sendable {
        case pending, active, completed, stopped, failed
    }

    /// A device of `/api/devices`: its ID (the extended address in hex) and whether it is a router.
    struct Device: Hashable, Sendable {
        var id: String
        var isRouter: Bool
    }

    /// The IDs of the tasks a `POST /api/actions` created, in order.
    static func createdTasks(_ body: [UInt8]) throws(RESTDecodingError) -> [String] {
        try items(body).map { (item) throws(RESTDecodingError) in
            guard let id = item["id"]?.string, !id.isEmpty, id.utf8.count <= 64 else { throw RESTDecodingError("a created task has no id") }
            return id
        }
    }

    /// `GET /api/actions` (JSON:API): the state of every task, by ID.
    static func taskStates(_ body: [UInt8]) throws(RESTDecodingError) -> [String: TaskState] {
        var states: [String: TaskState] = [:]
        for item in try items(body) {
            guard let id = item["id"]?.string, let text = item["attributes"]?["status"]?.string else {
                throw RESTDecodingError("a task has no id or status")
            }
            guard let status = Status(rawValue: text) else {
                throw RESTDecodingError("a task's status \(Quoted(String(text.prefix(40)))) is none of pending, active, completed, stopped, failed")
            }
            var result: String?
            if let related = item["relationships"]?["result"]?["data"] {
                guard let resultID = related["id"]?.string else { throw RESTDecodingError("a task's result has no id") }
                result = resultID
            }
            states[id] = TaskState(status: status, result: result)
        }
        return states
    }

    /// `GET /api/devices` (JSON:API): every device, a router unless its role is `child` (the agent's own
    /// item, `threadBorderRouter`, is a router whatever its role says).
    static func devices(_ body: [UInt8]) throws(RESTDecodingError) -> [Device] {
        try items(body).map { (item) throws(RESTDecodingError) in
            guard let id = item["id"]?.string, id.utf8.count == 16, id.allSatisfy(\.isHexDigit), let type = item["type"]?.string else {
                throw RESTDecodingError("a device has no 16-hex-digit id or no type")
            }
            let role = item["attributes"]?["role"]?.string
            return Device(id: id, isRouter: type == "threadBorderRouter" || role != "child")
        }
    }

    /// The `data` array of a JSON:API document, each element an object.
    private static func items(_ body: [UInt8]) throws(RESTDecodingError) -> [JSON] {
        guard let json = try? JSON(parsing: String(decoding: body, as: UTF8.self)), let data = json["data"]?.array else {
            throw RESTDecodingError("the answer is not a JSON:API document with a data array")
        }
        guard data.count <= maximumItems, data.allSatisfy({ $0.object != nil }) else {
            throw RESTDecodingError("the data array has more than \(maximumItems) items or one that is not an object")
        }
        return data
    }
}
