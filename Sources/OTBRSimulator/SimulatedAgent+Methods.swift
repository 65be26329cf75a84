import DBus
import MeshCoP
import OpenThreadBR

/// The handlers of `io.openthread.BorderRouter`'s network methods: argument checks as the agent makes
/// them (`InvalidArgs`), then the network state machine. The ePSKc methods and the property methods
/// are in SimulatedAgent+EpskcMethods.swift and SimulatedAgent+PropertyMethods.swift.
extension SimulatedAgent {
    /// The agent's answer to arguments it cannot use.
    static func invalidArgs() -> DBusError { OpenThreadError.invalidArgs.dbusError }

    func handleAttach(_ call: MethodCall) async throws -> [DBusValue] {
        if call.arguments.isEmpty { return try await attachWithStoredDataset() }
        guard let a = MethodArguments.prefix(call, [.array(.byte), .uint16, .string, .uint64, .array(.byte), .uint32]),
            case .bytes(let key) = a[0], case .uint16(let pan) = a[1], case .string(let name) = a[2],
            case .uint64(let xpan) = a[3], case .bytes(let pskc) = a[4], case .uint32(let mask) = a[5]
        else { throw Self.invalidArgs() }
        guard runtime.attach == nil, runtime.joinerWaiter == nil else { throw OpenThreadError.invalidState.dbusError }
        guard key.isEmpty || key.count == 16, pskc.isEmpty || pskc.count == 16, mask != 0,
            let networkName = NetworkName(name)
        else { throw Self.invalidArgs() }
        let channels = (11...26).filter { mask & radioChannels.supportedMask & (1 << $0) != 0 }
        guard let channel = channels.randomElement() else { throw Self.invalidArgs() }
        var dataset: OperationalDataset
        do {
            dataset = try OperationalDataset.random(
                name: networkName, channel: Channel(UInt16(channel)), panID: pan == 0xFFFF ? nil : PANID(pan),
                extendedPANID: xpan == .max ? nil : ExtendedPANID(xpan))
        } catch {
            throw OpenThreadError.failed.dbusError
        }
        if let networkKey = NetworkKey(bytes: key) { dataset.networkKey = networkKey }
        if let value = PSKc(bytes: pskc) { dataset.pskc = value }
        let waiter = newWaiter()
        runtime.attach = PendingAttach(waiter: waiter, kind: .attach, delayMs: 0, mgmtDataset: nil)
        await storeActiveDataset(dataset.encoded(), signal: false)
        if runtime.role.isAttached {
            // A new dataset while attached: the node re-attaches (leader → detached → leader).
            await setRole(.detached)
            await emitChanged("ActiveDatasetTlvs", .bytes(dataset.encoded()))
            scheduleAttach(after: configuration.roleDelay * 2)
        } else if runtime.role == .detached {
            await emitChanged("ActiveDatasetTlvs", .bytes(dataset.encoded()))
            scheduleAttach(after: configuration.roleDelay)
        } else {
            await startThread()
        }
        return try await wait(waiter)
    }

    /// `Attach()`: Thread up with the stored dataset; answers when attached. Without a dataset the node
    /// stays detached and the call is never answered, and later attaches fail (`InvalidState`).
    private func attachWithStoredDataset() async throws -> [DBusValue] {
        guard runtime.attach == nil, runtime.joinerWaiter == nil else { throw OpenThreadError.invalidState.dbusError }
        let waiter = newWaiter()
        runtime.attach = PendingAttach(waiter: waiter, kind: .attach, delayMs: 0, mgmtDataset: nil)
        await startThread()
        return try await wait(waiter)
    }

    func handleAttachAllNodesTo(_ call: MethodCall) async throws -> [DBusValue] {
        guard let a = MethodArguments.prefix(call, [.array(.byte)]), case .bytes(let tlvs) = a[0] else {
            throw Self.invalidArgs()
        }
        guard runtime.attach == nil, runtime.joinerWaiter == nil else { throw OpenThreadError.busy.dbusError }
        guard tlvs.count <= OperationalDataset.maximumLength, DatasetRules.isValidActive(tlvs) else {
            throw Self.invalidArgs()
        }
        if DatasetRules.sameTLVs(tlvs, persistent.activeDataset) {
            await startThreadStack()
            return [.int64(0)]
        }
        var data = tlvs
        var delay: Int64 = 0
        if DatasetRules.affectsConnectivity(tlvs, current: persistent.activeDataset) {
            delay = Int64(DatasetRules.migrationDelayMs)
            let now = clock.wallTime()
            guard let processed = DatasetRules.forMigration(tlvs, delayMs: DatasetRules.migrationDelayMs, wallTime: now) else {
                throw Self.invalidArgs()
            }
            data = processed
        }
        if !runtime.role.isAttached {
            let hasActive = persistent.activeDataset != nil
            if !hasActive { await storeActiveDataset(data, signal: false) }
            let waiter = newWaiter()
            runtime.attach = PendingAttach(
                waiter: waiter, kind: .attachAllNodes, delayMs: hasActive ? delay : 0, mgmtDataset: hasActive ? data : nil)
            await startThreadStack()
            return try await wait(waiter)
        }
        // Attached: MGMT_ACTIVE_SET or MGMT_PENDING_SET to the leader (this node), which judges the
        // timestamps (DatasetRules.leaderTakesActive/leaderTakesPending); OTBR passes `Rejected` on.
        // Observed: a dataset with another network key and the running network's Active Timestamp is
        // taken, as the rule allows.
        if delay == 0 {
            guard DatasetRules.leaderTakesActive(data, current: persistent.activeDataset) else {
                throw OpenThreadError.rejected.dbusError
            }
            await storeActiveDataset(data)
        } else {
            guard DatasetRules.leaderTakesPending(data, active: persistent.activeDataset, pending: persistent.pendingDataset) else {
                throw OpenThreadError.rejected.dbusError
            }
            setPendingDataset(data)
        }
        return [.int64(delay)]
    }

    func handleJoin(_ call: MethodCall) async throws -> [DBusValue] {
        guard let a = MethodArguments.prefix(call, [.array(.byte)]), case .bytes(let tlvs) = a[0],
            tlvs.count <= OperationalDataset.maximumLength, DatasetRules.decode(tlvs) != nil
        else { throw Self.invalidArgs() }
        let waiter = newWaiter()
        await beginJoin(tlvs, waiter: waiter)
        return try await wait(waiter)
    }

    func handleLeaveNetwork(_ call: MethodCall) async throws -> [DBusValue] {
        if runtime.afterDetach.contains(where: { if case .leave = $0 { true } else { false } }) {
            throw OpenThreadError.busy.dbusError
        }
        let waiter = newWaiter()
        runtime.afterDetach.append(.leave(waiter: waiter))
        detachGracefully()
        return try await wait(waiter)
    }

    func handleSetThreadEnabled(_ call: MethodCall) async throws -> [DBusValue] {
        guard let a = MethodArguments.prefix(call, [.boolean]), case .bool(let on) = a[0] else { throw Self.invalidArgs() }
        return try await setThreadEnabled(on)
    }

    func handleFactoryReset(_ call: MethodCall) async -> [DBusValue] {
        await factoryReset()
        return []
    }

    func handleSetNat64Enabled(_ call: MethodCall) async throws -> [DBusValue] {
        guard capabilities.nat64 else { throw OpenThreadError.notImplemented.dbusError }
        guard let a = MethodArguments.prefix(call, [.boolean]), case .bool(let on) = a[0] else { throw Self.invalidArgs() }
        await setNat64Enabled(on)
        return []
    }

    func handleScan(_ call: MethodCall) -> [DBusValue] {
        [.array(element: ScanResult.dbusType, [])]
    }

    func handleEnergyScan(_ call: MethodCall) throws -> [DBusValue] {
        guard let a = MethodArguments.prefix(call, [.uint32]), case .uint32(let ms) = a[0], ms < 65535 else {
            throw Self.invalidArgs()
        }
        // The preferred channel mask is the supported one here; each channel reads what was set for it.
        let results = radioChannels.scan().map { EnergyScanResult(channel: $0.channel, maxRSSI: $0.maxRSSI).dbusValue }
        return [.array(element: EnergyScanResult.dbusType, results)]
    }

    func handleJoinerStart(_ call: MethodCall) async throws -> [DBusValue] {
        guard MethodArguments.prefix(call, Array(repeating: .string, count: 6)) != nil else { throw Self.invalidArgs() }
        guard runtime.attach == nil, runtime.joinerWaiter == nil else { throw OpenThreadError.invalidState.dbusError }
        // Joining needs a commissioner on a network in range; the simulator has none.
        let waiter = newWaiter()
        runtime.joinerWaiter = waiter
        schedule(.joiner, after: .milliseconds(100)) { agent in
            guard let waiter = await agent.takeJoinerWaiter() else { return }
            await agent.fail(waiter, .notFound)
        }
        return try await wait(waiter)
    }

    func takeJoinerWaiter() -> UInt64? {
        defer { runtime.joinerWaiter = nil }
        return runtime.joinerWaiter
    }

    func handleJoinerStop(_ call: MethodCall) -> [DBusValue] {
        cancelTimer(.joiner)
        if let waiter = takeJoinerWaiter() { fail(waiter, .abort) }
        return []
    }

    /// `AddOnMeshPrefix`, `RemoveOnMeshPrefix`, `AddExternalRoute`, `RemoveExternalRoute`: OpenThread's
    /// local Network Data, registered with the leader (this node) while attached.
    func handleRoute(_ call: MethodCall, add: Bool, onMesh: Bool) throws -> [DBusValue] {
        let prefixType = SignatureType.structure([.array(.byte), .byte])
        let entryType: SignatureType =
            onMesh
            ? .structure([prefixType, .uint16, .byte] + Array(repeating: .boolean, count: 9))
            : .structure([prefixType, .uint16, .byte, .boolean, .boolean])
        guard let a = MethodArguments.prefix(call, [add ? entryType : prefixType]) else { throw Self.invalidArgs() }
        if add {
            if onMesh {
                guard let entry = OnMeshPrefixEntry(dbus: a[0]) else { throw Self.invalidArgs() }
                runtime.onMeshPrefixes.removeAll { $0.prefix == entry.prefix }
                runtime.onMeshPrefixes.append(entry)
            } else {
                guard let entry = ExternalRouteEntry(dbus: a[0]) else { throw Self.invalidArgs() }
                runtime.externalRoutes.removeAll { $0.prefix == entry.prefix }
                runtime.externalRoutes.append(entry)
            }
        } else {
            guard let prefix = IPv6Prefix(dbus: a[0]) else { throw Self.invalidArgs() }
            let present = onMesh ? runtime.onMeshPrefixes.contains { $0.prefix == prefix } : runtime.externalRoutes.contains { $0.prefix == prefix }
            guard present else { throw OpenThreadError.notFound.dbusError }
            if onMesh { runtime.onMeshPrefixes.removeAll { $0.prefix == prefix } } else { runtime.externalRoutes.removeAll { $0.prefix == prefix } }
        }
        networkDataMayHaveChanged()
        return []
    }

    func handleSetBorderAgentEnabled(_ call: MethodCall) throws -> [DBusValue] {
        guard let a = MethodArguments.prefix(call, [.boolean]), case .bool(let on) = a[0] else { throw Self.invalidArgs() }
        runtime.borderAgentEnabled = on
        return []
    }

    /// `UpdateVendorMeshCopTxtEntries`: sizes first, then reserved keys, then `id`.
    func handleUpdateVendorTXT(_ call: MethodCall) throws -> [DBusValue] {
        guard let a = MethodArguments.prefix(call, [.array(VendorTXTEntry.dbusType)]), case .array(_, let items) = a[0],
            let entries = try? items.map({ (v) throws(DBusValueError) in try VendorTXTEntry(dbusValue: v) })
        else { throw Self.invalidArgs() }
        var update: [String: [UInt8]] = [:]
        for entry in entries {
            guard !entry.key.isEmpty, entry.key.utf8.count + entry.value.count + 1 <= 255 else { throw Self.invalidArgs() }
            update[entry.key] = entry.value
        }
        guard update.keys.allSatisfy({ !VendorTXTEntry.reservedKeys.contains($0) }) else { throw Self.invalidArgs() }
        if let id = update.removeValue(forKey: "id") {
            guard id.count == 16 else { throw Self.invalidArgs() }
            persistent.borderAgentID = id
            runtime.borderAgentID = id
        }
        runtime.vendorTXT = update.keys.sorted().map { VendorTXTEntry(key: $0, value: update[$0] ?? []) }
        return []
    }
}
