import TBRFoundation

/// One item of the REST API's *Actions* collection (`/api/actions`; ot-br-posix `src/rest/actions/`):
/// a `getNetworkDiagnosticTask` or an `updateDeviceCollectionTask`, its attributes as the agent keeps
/// them and its status. The simulator serves no other task type.
struct RESTTask: Sendable {
    enum Kind: String, Sendable {
        case networkDiagnostic = "getNetworkDiagnosticTask"
        case updateDeviceCollection = "updateDeviceCollectionTask"
    }

    /// `BasicActions::StatusToString`.
    enum Status: String, Sendable {
        case pending, active, completed, stopped, failed
    }

    /// How `destination` names a node (`AddressTypeToString`).
    enum DestinationType: String, Sendable {
        case extended, mleid, rloc
    }

    let id: String
    let kind: Kind
    /// `getNetworkDiagnosticTask`: the node, as given, and how it names it.
    var destination = ""
    var destinationType = DestinationType.extended
    /// `getNetworkDiagnosticTask`: the types asked for, once each, in TLV order (the agent keeps a set).
    var types: [RESTDiagnosticType] = []
    /// `updateDeviceCollectionTask`: `maxAge` (seconds), `maxRetries`, `deviceCount`.
    var maxAge = 0.0, maxRetries = 0, deviceCount = 0
    /// The task's time limit in seconds, counted from its creation.
    let timeout: Int64
    let created: ContinuousClock.Instant
    /// When it was created, for `created` (seconds since the epoch).
    let createdWallTime: Double
    var status = Status.pending
    /// How often a device update started again for want of devices.
    var retries = 0
    /// When an active task has its answer.
    var answerAt: ContinuousClock.Instant?
    /// The diagnostics item the task produced; "" when it completed without one.
    var result: String?

    /// A task from one element of a POST's `data` array, checked as the agent checks it
    /// (`ActionsList::ValidateRequest` and the task's `Validate`): an object with a `type` string and an
    /// `attributes` object; a required numeric `timeout`; for a diagnostic task a `destination` (16 hex
    /// characters for `extended` or `mleid`, 6 for `rloc`; without `destinationType` the length decides)
    /// and a `types` array of known names; for a device update numeric `maxAge`, `maxRetries` and
    /// `deviceCount`. Nil for anything else (the agent answers 422).
    init?(_ item: JSON, id: String, now: ContinuousClock.Instant, wallTime: Double) {
        guard let typeName = item["type"]?.string, let kind = Kind(rawValue: typeName), let attributes = item["attributes"],
            attributes.object != nil, let timeout = attributes["timeout"].flatMap(RESTAnswer.number)
        else { return nil }
        self.id = id
        self.kind = kind
        self.timeout = timeout.isFinite ? Int64(max(min(timeout, 2e9), -2e9)) : 0
        created = now
        createdWallTime = wallTime
        switch kind {
        case .networkDiagnostic:
            guard let destination = attributes["destination"]?.string else { return nil }
            let given = attributes["destinationType"]
            let length = destination.utf8.count
            let type: DestinationType
            if let given {
                guard let name = given.string, let named = DestinationType(rawValue: name) else { return nil }
                type = named
            } else {
                guard let byLength: DestinationType = length == 16 ? .extended : length == 6 ? .rloc : nil else { return nil }
                type = byLength
            }
            guard length == (type == .rloc ? 6 : 16), let names = attributes["types"]?.array else { return nil }
            var types = Set<RESTDiagnosticType>()
            for name in names {
                guard let key = name.string, let known = RESTDiagnosticType(key: key) else { return nil }
                types.insert(known)
            }
            (self.destination, destinationType, self.types) = (destination, type, types.sorted())
        case .updateDeviceCollection:
            guard let maxAge = attributes["maxAge"].flatMap(RESTAnswer.number),
                let retries = attributes["maxRetries"].flatMap(RESTAnswer.number),
                let count = attributes["deviceCount"].flatMap(RESTAnswer.number)
            else { return nil }
            (self.maxAge, maxRetries, deviceCount) = (maxAge, Self.int(retries), Self.int(count))
        }
    }

    /// Whether the task is still to run or running.
    var isPendingOrActive: Bool { status == .pending || status == .active }

    /// Whether its time limit has passed.
    func isBeyondTimeout(_ now: ContinuousClock.Instant) -> Bool { now >= created.advanced(by: .seconds(timeout)) }

    /// The attributes (`Jsonify`): the task's own, the seconds left while pending or active, the status;
    /// with `created` (RFC 3339) as the collection shows them, without as the POST answer does.
    func attributes(now: ContinuousClock.Instant, created withCreated: Bool) -> JSON {
        var a = JSONObject()
        switch kind {
        case .networkDiagnostic:
            a["destination"] = .string(destination)
            a["destinationType"] = .string(destinationType.rawValue)
            a["types"] = .array(types.map { .string($0.key) })
        case .updateDeviceCollection:
            a["maxAge"] = maxAge == maxAge.rounded() && abs(maxAge) < 1e15 ? JSON(Int64(maxAge)) : .double(maxAge)
            a["maxRetries"] = JSON(maxRetries)
            a["deviceCount"] = JSON(deviceCount)
        }
        if isPendingOrActive {
            let left = created.advanced(by: .seconds(timeout)) - now
            a["timeout"] = JSON(max(0, left.components.seconds))
        }
        a["status"] = .string(status.rawValue)
        if withCreated { a["created"] = .string(RFC3339.format(createdWallTime)) }
        return .object(a)
    }

    /// The JSON:API resource object: `id`, `type`, `attributes` (with `created`) and, once the task has
    /// a result, `relationships.result.data` naming the diagnostics item.
    func resource(now: ContinuousClock.Instant) -> JSON {
        var item: JSONObject = ["id": .string(id), "type": .string(kind.rawValue), "attributes": attributes(now: now, created: true)]
        if let result {
            item["relationships"] = ["result": ["data": ["type": "diagnostics", "id": .string(result)]]]
        }
        return .object(item)
    }

    /// cJSON's `valueint`: the number truncated and clamped to `Int32`.
    private static func int(_ value: Double) -> Int {
        guard value.isFinite else { return value > 0 ? Int(Int32.max) : Int(Int32.min) }
        return Int(max(min(value, Double(Int32.max)), Double(Int32.min)))
    }
}
