import MeshCoP
import TBRFoundation

/// How the REST API's tasks run (ot-br-posix `actions/network_diagnostic.cpp`,
/// `actions/discover_network.cpp`, `network_diag_handler.cpp`). The agent advances its tasks in its
/// main loop; the simulator does the same work whenever the API is asked something, on the agent's
/// clock: a task is `pending` until the one diagnostic request the agent runs at a time is free (and,
/// for a diagnostic, its destination can be looked up), then `active` for ``SimulatorConfiguration/diagnosticDelay``
/// while the simulated mesh answers, then `completed`; still pending or active when its `timeout`
/// runs out, it is `stopped`.
extension SimulatedAgent {
    /// Advances every pending or active task, in the order they were created.
    func processRESTTasks() {
        let now = clock.now()
        for var task in restServices.tasks where task.isPendingOrActive {
            // The agent's main loop would have started it as soon as it was created and the request free.
            let startedAt = max(task.created, restServices.freeSince ?? task.created)
            if task.status == .pending, restServices.runningTask == nil, startedAt <= now,
                let answerAt = start(task, at: startedAt)
            {
                task.status = .active
                task.answerAt = answerAt
                restServices.runningTask = task.id
            }
            if task.status == .active, let at = task.answerAt, now >= at {
                finish(&task)
                restServices.runningTask = nil
                restServices.freeSince = at
            }
            if task.isPendingOrActive, task.isBeyondTimeout(now) {
                if restServices.runningTask == task.id {
                    restServices.runningTask = nil
                    restServices.freeSince = now
                }
                task.status = .stopped
            }
            restServices.update(task)
        }
    }

    /// When the mesh answers the request `task` starts now; nil when it cannot start (not attached: the
    /// request cannot be sent; a destination the agent cannot look up: an extended address that is no
    /// device of the collection, an ML-EID IID that is not hex). A node that does not answer every
    /// non-omittable type asked for, or is not there, leaves the request waiting until the task's time
    /// runs out.
    private func start(_ task: RESTTask, at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let view = partitionView() else { return nil }
        let answered = now.advanced(by: configuration.diagnosticDelay)
        let timedOut = task.created.advanced(by: .seconds(task.timeout))
        switch task.kind {
        case .updateDeviceCollection: return answered
        case .networkDiagnostic:
            switch task.destinationType {
            case .extended:
                guard restServices.device(task.destination) != nil else { return nil }
                guard let ext = UInt64(task.destination, radix: 16), let subject = view.subject(ext),
                    view.answersFully(subject, task.types)
                else { return timedOut }
                return answered
            case .mleid:
                return UInt64(task.destination, radix: 16) == nil ? nil : answered
            case .rloc:
                return answered
            }
        }
    }

    /// Completes `task` with what the mesh answered.
    private func finish(_ task: inout RESTTask) {
        let wall = clock.wallTime()
        switch task.kind {
        case .updateDeviceCollection:
            refreshDevices(wallTime: wall)
            if restServices.devices.count < task.deviceCount, task.retries <= task.maxRetries {
                task.retries += 1
                task.status = .pending
                task.answerAt = nil
                return
            }
        case .networkDiagnostic:
            // The agent keeps only answers from the extended address it asked (`FillDiagnosticCollection`):
            // an ML-EID or RLOC16 destination completes without a diagnostics item.
            task.result = ""
            if task.destinationType == .extended, let view = partitionView(), let ext = UInt64(task.destination, radix: 16),
                let subject = view.subject(ext)
            {
                let item = RESTServices.Diagnostic(
                    id: RFC3339.randomUUID(), attributes: view.diagnostics(subject, types: task.types), created: wall)
                restServices.add(item)
                task.result = item.id
            }
        }
        task.status = .completed
    }

    /// The partition while attached, as diagnostics see it.
    func partitionView() -> PartitionView? {
        guard runtime.role.isAttached else { return nil }
        let dataset = persistent.activeDataset.flatMap(DatasetRules.decode)
        let prefix = dataset?.meshLocalPrefix ?? (try? MeshLocalPrefix(tlvValue: runtime.meshLocalPrefix)) ?? MeshLocalPrefix(0)
        let omr = favoredOMRPrefix.map { $0.prefix.bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        return PartitionView(
            mesh: visibleMesh, borderRouterExt: persistent.extendedAddress, borderRouterID: runtime.routerID, leaderData: leaderData,
            networkData: networkDataTLVs(stable: false), meshLocalPrefix: prefix, omrPrefix: omr,
            borderRouterHasRoutes: !networkExternalRoutes.isEmpty, borderRouterEUI64: configuration.eui64.rawValue,
            vendorName: vendorName, productName: productName, now: clock.now())
    }

    /// The agent's own device item, as the REST server makes it when it starts (`ApiDevicesNodeInit`).
    func addOwnDevice() {
        restServices.upsert(
            id: PartitionView.hex64(persistent.extendedAddress), type: "threadBorderRouter", attributes: ownDeviceAttributes(view: nil),
            wallTime: clock.wallTime())
    }

    /// A discovery's result (`FillDeviceCollection`): the agent and every node of the partition, two-hop
    /// ones too. Children get the agent's swapped mode (`GetChildren` fills `otLinkModeConfig` in the
    /// wrong order: `rxOnWhenIdle` is the child's full-Thread-device flag and the other way round).
    private func refreshDevices(wallTime: Double) {
        guard let view = partitionView() else { return }
        restServices.upsert(
            id: PartitionView.hex64(view.borderRouterExt), type: "threadBorderRouter", attributes: ownDeviceAttributes(view: view),
            wallTime: wallTime)
        for node in view.mesh.nodes {
            let s = PartitionView.Subject.node(node)
            let router = node.kind == .router
            let mode: JSON = [
                "fullThreadDevice": .bool(router || node.rxOnWhenIdle), "rxOnWhenIdle": .bool(router || node.fullThreadDevice),
                "fullNetworkData": true,
            ]
            restServices.upsert(
                id: PartitionView.hex64(node.extAddress), type: "threadDevice",
                attributes: deviceInfo(view, s, role: router ? "router" : "child", mode: mode), wallTime: wallTime)
        }
    }

    /// `DeviceInfo2Json`: extended address, ML-EID IID, OMR address (`::` without one), host name (no
    /// SRP here: empty), role, mode.
    private func deviceInfo(_ view: PartitionView, _ s: PartitionView.Subject, role: String, mode: JSON) -> JSONObject {
        let ext = view.ext(s)
        let omr = view.omrPrefix.map { MeshLocalPrefix(rawValue: $0).address(interfaceIdentifier: PartitionView.omrIID(ext)) }
        return [
            "extAddress": .string(PartitionView.hex64(ext)), "mlEidIid": .string(PartitionView.hex64(PartitionView.mlEIDIID(ext))),
            "omrIpv6Address": .string(omr ?? "::"), "hostname": "", "role": .string(role), "mode": mode,
        ]
    }

    /// The agent's item: its device info (empty until a discovery), merged with its node info
    /// (`ThisThreadDevice::ToJsonString`, `UpdateNodeItem`).
    private func ownDeviceAttributes(view: PartitionView?) -> JSONObject {
        let ext = persistent.extendedAddress
        var a: JSONObject
        if let view {
            a = deviceInfo(view, .borderRouter, role: "router", mode: ["fullThreadDevice": true, "rxOnWhenIdle": true, "fullNetworkData": true])
        } else {
            a = [
                "extAddress": .string(PartitionView.hex64(ext)), "mlEidIid": "0000000000000000", "omrIpv6Address": "::", "hostname": "",
                "role": "", "mode": ["fullThreadDevice": false, "rxOnWhenIdle": false, "fullNetworkData": false],
            ]
        }
        let attached = runtime.role.isAttached
        let dataset = persistent.activeDataset.flatMap(DatasetRules.decode)
        let rloc16: UInt16 = attached ? ownRloc16 : 0
        let data = attached ? leaderData : LeaderDataValue(partitionID: 0, weighting: 0, dataVersion: 0, stableDataVersion: 0, leaderRouterID: 0)
        let prefix = dataset?.meshLocalPrefix ?? MeshLocalPrefix(0)
        a["baId"] = .string(Hex.encode(runtime.borderAgentID).lowercased())
        a["baState"] = .string(!runtime.borderAgentEnabled ? "disabled" : attached ? "active" : "enabled")
        a["state"] = .string(runtime.role.wireName)
        a["routerCount"] = JSON(attached ? 1 + visibleMesh.routers.count : 0)
        a["rlocAddress"] = .string(attached ? prefix.address(interfaceIdentifier: 0x0000_00FF_FE00_0000 | UInt64(rloc16)) : "::")
        a["networkName"] = .string(attached ? dataset?.networkName?.rawValue ?? "" : "")
        a["rloc16"] = .string(PartitionView.hex16(rloc16))
        if rloc16 & 0x1FF == 0 { a["routerId"] = JSON(rloc16 >> 10) }
        a["leaderData"] = [
            "partitionId": JSON(data.partitionID), "weighting": JSON(data.weighting), "dataVersion": JSON(data.dataVersion),
            "stableDataVersion": JSON(data.stableDataVersion), "leaderRouterId": JSON(data.leaderRouterID),
        ]
        a["extPanId"] = .string(PartitionView.hex64(dataset?.extendedPANID?.rawValue ?? Self.defaultExtendedPANID))
        return a
    }
}
