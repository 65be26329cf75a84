import HTTP
import TBRFoundation
import TBRTestKit
import Testing

/// Driving the REST API's `/api/` collections as a client does: JSON:API in and out.
extension RESTEnvironment {
    static let jsonAPI = "application/vnd.api+json"

    /// `POST /api/actions` with `tasks` as `data`: the status and the answer's JSON (null without one).
    func post(_ tasks: [JSON], contentType: String? = RESTEnvironment.jsonAPI) async throws -> (status: Int, json: JSON) {
        let body = JSON.object(["data": .array(tasks)]).serialized
        let response = try await send("POST", "/api/actions", body: body, contentType: contentType, accept: Self.jsonAPI)
        return (response.status, (try? JSON(parsing: response.text)) ?? .null)
    }

    /// The IDs of the tasks a POST created (200 expected).
    func postTasks(_ tasks: [JSON]) async throws -> [String] {
        let (status, json) = try await post(tasks)
        #expect(status == 200, "POST /api/actions: \(status) \(json)")
        return (json["data"]?.array ?? []).compactMap { $0["id"]?.string }
    }

    /// `GET path` with `Accept: application/vnd.api+json`, as JSON (200 expected).
    func api(_ path: String, accept: String = RESTEnvironment.jsonAPI) async throws -> JSON {
        let response = try await send("GET", path, accept: accept)
        #expect(response.status == 200 && response.contentType == accept, "GET \(path): \(response.status) \(response.contentType ?? "")")
        return try JSON(parsing: response.text)
    }

    /// Waits until task `id` has `status`, and returns its resource object.
    @discardableResult
    func waitForTask(_ id: String, _ status: String) async throws -> JSON {
        var task: JSON = .null
        try await eventually("task \(id) is \(status)") {
            task = try await api("/api/actions/\(id)")["data"] ?? .null
            return task["attributes"]?["status"]?.string == status
        }
        return task
    }

    /// Discovers the devices (`updateDeviceCollectionTask`) and waits for it to complete.
    func discoverDevices() async throws {
        let ids = try await postTasks([discovery()])
        try await waitForTask(try #require(ids.first), "completed")
    }

    /// The diagnostics item a completed task produced.
    func result(of task: JSON) async throws -> JSON {
        let id = try #require(task["relationships"]?["result"]?["data"]?["id"]?.string)
        return try await api("/api/diagnostics/\(id)")["data"] ?? .null
    }
}

/// An `updateDeviceCollectionTask`.
func discovery(timeout: Int = 10) -> JSON {
    ["type": "updateDeviceCollectionTask", "attributes": ["maxAge": 30, "maxRetries": 0, "deviceCount": 0, "timeout": JSON(timeout)]]
}

/// A `getNetworkDiagnosticTask` for `destination` asking `types`.
func diagnosticTask(_ destination: String, _ types: [String], timeout: Int = 10, destinationType: String? = nil) -> JSON {
    var attributes: JSONObject = ["destination": .string(destination), "types": .array(types.map { .string($0) }), "timeout": JSON(timeout)]
    if let destinationType { attributes["destinationType"] = .string(destinationType) }
    return ["type": "getNetworkDiagnosticTask", "attributes": .object(attributes)]
}

/// The 16 hex digits of an extended address.
func hex(_ ext: UInt64) -> String {
    let digits = String(ext, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

/// `0x` and four hex digits.
func hex16(_ rloc16: UInt16) -> String {
    let digits = String(rloc16, radix: 16)
    return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
}
