import TBRFoundation

/// Network diagnostics through the REST API's `/api/` collections (ot-br-posix `src/rest/openapi.yaml`,
/// `actions/`, `network_diag_handler.cpp`).
///
/// A `getNetworkDiagnosticTask` asks one node, named by its extended address, and the agent looks that
/// address up in its *Devices* collection: so the devices are discovered first
/// (`updateDeviceCollectionTask`, which reaches every router with a multicast query and every child
/// through its parent). Then every router is asked for its RLOC16, mode, Route64, leader data and
/// children: children need not answer themselves (a sleepy one may not, and the agent's device list can
/// carry a zero ML-EID for a child it has just found, which it then cannot reach). Asking by ML-EID or
/// RLOC16 gives no result on this agent (it keeps only answers from the extended address asked).
extension RESTAgent {
    /// The JSON:API media type the `/api/` collections speak.
    static let jsonAPI = "application/vnd.api+json"
    /// How often a running task is looked at.
    static let taskPollInterval: Duration = .milliseconds(100)
    /// Diagnostic tasks per `POST` (the agent keeps at most 200 tasks).
    static let tasksPerPost = 50

    /// The mesh around the border router: discovers the devices, asks every router for its diagnostics
    /// and reads the results, polling the tasks until they end.
    /// - Parameter timeout: how long it may all take (each task is given what is left of it).
    /// - Returns: every router that answered and the children they list; routers that did not answer in
    ///   ``NetworkDiagnostics/unanswered``.
    /// - Throws: ``RESTAgentError``: `timedOut` when the discovery or the tasks do not end in time (the
    ///   agent not attached, say); `refused` for an agent without the `/api/` collections (404) or a
    ///   task it refuses or fails; `invalidResponse` for answers that cannot be read; `cancelled`.
    public func networkDiagnostics(timeout: Duration) async throws(RESTAgentError) -> NetworkDiagnostics {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let discovery = try await postTasks([
            ["type": "updateDeviceCollectionTask", "attributes": ["maxAge": 30, "maxRetries": 0, "deviceCount": 0, "timeout": Self.seconds(until: deadline)]]
        ])
        let discovered = try await waitFor(discovery, until: deadline)
        let status = discovered[discovery[0]]?.status
        guard status == .completed else {
            // `stopped`: its time ran out (an agent that is not attached never starts it).
            throw RESTAgentError(
                status == .stopped ? .timedOut : .refused,
                "the otbr-agent at \(base) could not discover its mesh (task \(status?.rawValue ?? "lost"))")
        }
        let routers = try await readAPI("/api/devices", RESTTaskDecoding.devices).filter(\.isRouter)
        var tasks: [String] = []
        for start in stride(from: 0, to: routers.count, by: Self.tasksPerPost) {
            let chunk = routers[start..<min(start + Self.tasksPerPost, routers.count)]
            tasks += try await postTasks(
                chunk.map { device in
                    let types: [JSON] = ["extAddress", "rloc16", "mode", "route", "leaderData", "children"]
                    return [
                        "type": "getNetworkDiagnosticTask",
                        "attributes": [
                            "destination": .string(device.id.lowercased()), "destinationType": "extended", "types": .array(types),
                            "timeout": Self.seconds(until: deadline),
                        ],
                    ]
                })
        }
        let states = try await waitFor(tasks, until: deadline)
        let results = Set(tasks.compactMap { states[$0]?.result }.filter { !$0.isEmpty })
        let response = try await send("GET", "/api/diagnostics", accept: Self.jsonAPI)
        try check(response, "/api/diagnostics")
        var diagnostics: NetworkDiagnostics
        do { diagnostics = try NetworkDiagnostics.decode(response.body, keeping: results) } catch {
            throw RESTAgentError(.invalidResponse, "the otbr-agent at \(base): \(error.message)")
        }
        let answered = diagnostics
        diagnostics.unanswered = routers.compactMap { UInt64($0.id, radix: 16) }.filter { answered.node(extAddress: $0) == nil }
        return diagnostics
    }

    /// `POST /api/actions` with `tasks` as the `data` array: the IDs of the tasks created.
    private func postTasks(_ tasks: [JSON]) async throws(RESTAgentError) -> [String] {
        let body = JSON.object(["data": .array(tasks)]).serialized
        let response = try await send("POST", "/api/actions", body: Array(body.utf8), contentType: Self.jsonAPI, accept: Self.jsonAPI)
        try check(response, "/api/actions")
        let ids: [String]
        do { ids = try RESTTaskDecoding.createdTasks(response.body) } catch { throw invalid("/api/actions", error) }
        guard ids.count == tasks.count else {
            throw RESTAgentError(.invalidResponse, "the otbr-agent at \(base) created \(ids.count) of \(tasks.count) tasks")
        }
        return ids
    }

    /// Reads `/api/actions` until every task of `ids` has ended, or throws `timedOut` at `deadline`.
    private func waitFor(_ ids: [String], until deadline: ContinuousClock.Instant) async throws(RESTAgentError)
        -> [String: RESTTaskDecoding.TaskState]
    {
        while true {
            let states = try await readAPI("/api/actions", RESTTaskDecoding.taskStates)
            if ids.allSatisfy({ states[$0]?.isFinished ?? true }) { return states }
            guard ContinuousClock.now < deadline else {
                throw RESTAgentError(.timedOut, "the otbr-agent at \(base) did not finish its network diagnostic tasks in time")
            }
            do { try await Task.sleep(for: Self.taskPollInterval) } catch {
                throw RESTAgentError(.cancelled, "reading the network diagnostics of \(base) was cancelled")
            }
        }
    }

    private func readAPI<T>(_ path: String, _ decode: ([UInt8]) throws(RESTDecodingError) -> T) async throws(RESTAgentError) -> T {
        let response = try await send("GET", path, accept: Self.jsonAPI)
        try check(response, path)
        do { return try decode(response.body) } catch { throw invalid(path, error) }
    }

    /// Whole seconds left until `deadline`, at least 1.
    private static func seconds(until deadline: ContinuousClock.Instant) -> JSON {
        let left = deadline - ContinuousClock.now
        return JSON(max(1, left.components.seconds + (left.components.attoseconds > 0 ? 1 : 0)))
    }
}
