import TBRFoundation

/// The REST API's collections of one agent process (ot-br-posix `src/rest/services.cpp`): *Actions*,
/// *Devices* and *Diagnostics*, each of at most 200 items (the oldest goes first), and the one network
/// diagnostic request the agent runs at a time.
struct RESTServices: Sendable {
    /// A device item: its ID (the extended address in lower-case hex), type and attributes.
    struct Device: Sendable {
        let id: String
        /// `threadDevice`, or `threadBorderRouter` for the agent itself.
        let type: String
        var attributes: JSONObject
        let created: Double
        var updated: Double?
    }

    /// A `networkDiagnostics` item.
    struct Diagnostic: Sendable {
        let id: String
        let attributes: JSONObject
        let created: Double
    }

    /// `MAX_ACTIONS_COLLECTION_ITEMS`, `MAX_DEVICES_COLLECTION_ITEMS`, `MAX_DIAG_COLLECTION_ITEMS`.
    static let capacity = 200

    private(set) var tasks: [RESTTask] = []
    private(set) var devices: [Device] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// The task whose diagnostic request or discovery is running (the agent runs one at a time).
    var runningTask: String?
    /// When the agent's one request last became free (a task waiting for it starts then).
    var freeSince: ContinuousClock.Instant?

    mutating func add(_ task: RESTTask) {
        while tasks.count >= Self.capacity { tasks.removeFirst() }
        tasks.append(task)
    }

    mutating func update(_ task: RESTTask) {
        if let i = tasks.firstIndex(where: { $0.id == task.id }) { tasks[i] = task }
    }

    func task(_ id: String) -> RESTTask? { tasks.first { $0.id == id } }

    mutating func removeTask(_ id: String) -> Bool {
        guard let i = tasks.firstIndex(where: { $0.id == id }) else { return false }
        if runningTask == id { runningTask = nil }
        tasks.remove(at: i)
        return true
    }

    mutating func removeAllTasks() {
        tasks = []
        runningTask = nil
    }

    /// Adds the device or, when its ID is there, replaces its attributes and marks it updated.
    mutating func upsert(id: String, type: String, attributes: JSONObject, wallTime: Double) {
        if let i = devices.firstIndex(where: { $0.id == id }) {
            if devices[i].attributes != attributes {
                devices[i].attributes = attributes
                devices[i].updated = wallTime
            }
            return
        }
        while devices.count >= Self.capacity { devices.removeFirst() }
        devices.append(Device(id: id, type: type, attributes: attributes, created: wallTime))
    }

    func device(_ id: String) -> Device? { devices.first { $0.id == id } }

    mutating func removeDevice(_ id: String) -> Bool {
        guard let i = devices.firstIndex(where: { $0.id == id }) else { return false }
        devices.remove(at: i)
        return true
    }

    /// Removes every device but `keeping` (the agent's own item is made again at once).
    mutating func removeDevices(keeping: String?) { devices.removeAll { $0.id != keeping } }

    mutating func add(_ diagnostic: Diagnostic) {
        while diagnostics.count >= Self.capacity { diagnostics.removeFirst() }
        diagnostics.append(diagnostic)
    }

    func diagnostic(_ id: String) -> Diagnostic? { diagnostics.first { $0.id == id } }

    mutating func removeDiagnostic(_ id: String) -> Bool {
        guard let i = diagnostics.firstIndex(where: { $0.id == id }) else { return false }
        diagnostics.remove(at: i)
        return true
    }

    mutating func removeAllDiagnostics() { diagnostics = [] }
}

extension RESTServices.Device {
    /// The attributes with `created` (and `updated` once changed), as a collection shows them.
    var timestamped: JSON {
        var a = attributes
        a["created"] = .string(RFC3339.format(created))
        if let updated { a["updated"] = .string(RFC3339.format(updated)) }
        return .object(a)
    }

    /// The JSON:API resource object.
    var resource: JSON { ["id": .string(id), "type": .string(type), "attributes": timestamped] }
}

extension RESTServices.Diagnostic {
    var timestamped: JSON {
        var a = attributes
        a["created"] = .string(RFC3339.format(created))
        return .object(a)
    }

    /// The JSON:API resource object.
    var resource: JSON { ["id": .string(id), "type": "networkDiagnostics", "attributes": timestamped] }
}
