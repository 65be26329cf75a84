import DBus
import MeshCoP
import OpenThreadBR

/// The network state machine: roles, datasets and the host operations of ot-br-posix's `ThreadHelper`
/// and `RcpHost`, with the timing of the real agent scaled by the configured delays.
extension SimulatedAgent {
    // MARK: role

    /// Changes the role, signalling it (unless the process is about to exit without a word, as on
    /// `LeaveNetwork`), and runs what attaching or detaching triggers.
    func setRole(_ role: DeviceRole, signal: Bool = true) async {
        guard runtime.role != role else { return }
        let wasAttached = runtime.role.isAttached
        runtime.role = role
        if role.isAttached && !wasAttached {
            runtime.routerID = mesh.freeRouterIDForBorderRouter()
            runtime.partitionID = UInt32.random(in: 1...UInt32.max)
            resetNetworkData()
        }
        networkDataMayHaveChanged()
        if signal { await emitChanged("DeviceRole", .string(role.wireName)) }
        if role.isAttached && !wasAttached { await onAttached() }
        await updateNat64()
        await updateDhcp6()
    }

    /// `otThreadSetEnabled(true)` from disabled: detached at once (with the active dataset signalled, as
    /// observed), leader after the role delay if the stored dataset lets the node form a network.
    func startThread() async {
        guard runtime.role == .disabled else { return }
        await setRole(.detached)
        if let dataset = persistent.activeDataset { await emitChanged("ActiveDatasetTlvs", .bytes(dataset)) }
        scheduleAttach(after: configuration.roleDelay)
    }

    /// Schedules detached → leader, unless the node has no complete dataset (then it stays detached).
    func scheduleAttach(after delay: Duration) {
        guard DatasetRules.canAttach(persistent.activeDataset) else {
            cancelTimer(.attach)
            return
        }
        schedule(.attach, after: delay) { agent in await agent.attachTimerFired() }
    }

    private func attachTimerFired() async {
        guard runtime.role == .detached else { return }
        await setRole(.leader)
    }

    /// `otThreadSetEnabled(false)` and `otIp6SetEnabled(false)`.
    func stopThread(signal: Bool = true) async {
        cancelTimer(.attach)
        await setRole(.disabled, signal: signal)
    }

    /// The node attached: answer a waiting `Attach`/`AttachAllNodesTo` (sending its management
    /// dataset first), then a waiting `Join`.
    private func onAttached() async {
        if let pending = runtime.attach {
            runtime.attach = nil
            if let mgmt = pending.mgmtDataset {
                if pending.delayMs == 0 {
                    await storeActiveDataset(mgmt)
                } else {
                    setPendingDataset(mgmt)
                }
                reply(pending.waiter, [.int64(pending.delayMs)])
            } else {
                reply(pending.waiter, pending.kind == .attach ? [] : [.int64(pending.delayMs)])
            }
        }
        if let join = runtime.joinWaiter {
            runtime.joinWaiter = nil
            reply(join)
        }
    }

    // MARK: datasets

    /// Stores `tlvs` as the active dataset, signalling `ActiveDatasetTlvs` if it changed.
    func storeActiveDataset(_ tlvs: [UInt8], signal: Bool = true) async {
        guard persistent.activeDataset != tlvs else { return }
        persistent.activeDataset = tlvs
        if signal { await emitChanged("ActiveDatasetTlvs", .bytes(tlvs)) }
    }

    /// Stores a pending dataset and schedules it to become active when its delay timer expires.
    func setPendingDataset(_ tlvs: [UInt8]) {
        persistent.pendingDataset = tlvs
        schedulePendingDataset(tlvs)
    }

    /// Starts the pending dataset's delay: the Delay Timer it carries, scaled by `--pending-delay`
    /// (which is what a Delay Timer of 300000 ms takes). Without a Delay Timer (a pending dataset
    /// written over REST may have none) no timer runs, as in OpenThread's `StartDelayTimer`.
    func schedulePendingDataset(_ tlvs: [UInt8]) {
        guard DatasetRules.decode(tlvs)?.delayTimer != nil else {
            cancelTimer(.pendingDataset)
            runtime.pendingSince = nil
            return
        }
        runtime.pendingSince = clock.now()
        schedule(.pendingDataset, after: pendingDuration(of: tlvs)) { agent in _ = await agent.applyPendingDataset() }
    }

    /// How long the pending dataset `tlvs` really waits.
    private func pendingDuration(of tlvs: [UInt8]) -> Duration {
        let ms = DatasetRules.decode(tlvs)?.delayTimer?.milliseconds ?? 0
        return configuration.pendingDelay * (Double(ms) / Double(DatasetRules.migrationDelayMs))
    }

    /// `PendingDatasetTlvs` as OpenThread reads it: the Delay Timer holds the time left, counting down
    /// at the rate the simulated delay runs.
    func pendingDatasetAsRead() -> [UInt8]? {
        guard let tlvs = persistent.pendingDataset else { return nil }
        guard let since = runtime.pendingSince, let given = DatasetRules.decode(tlvs)?.delayTimer?.milliseconds else {
            return tlvs
        }
        let total = pendingDuration(of: tlvs)
        let left = total > .zero ? max(0, 1 - (clock.now() - since) / total) : 0
        return DatasetRules.counting(tlvs, remainingMs: UInt32((Double(given) * left).rounded(.up)))
    }

    /// The pending dataset's delay expired (or the control interface said so): it replaces the active
    /// dataset if its Active Timestamp is newer or its network key differs
    /// (``DatasetRules/replacesActiveAtExpiry(_:active:)``), and is cleared either way. The simulated
    /// nodes of the mesh had it too, so they move with the border router.
    /// - Returns: whether there was a pending dataset.
    func applyPendingDataset() async -> Bool {
        guard let pending = persistent.pendingDataset else { return false }
        cancelTimer(.pendingDataset)
        persistent.pendingDataset = nil
        runtime.pendingSince = nil
        if DatasetRules.replacesActiveAtExpiry(pending, active: persistent.activeDataset) {
            let followed = meshNetwork == nil || meshNetwork == activeNetwork
            await storeActiveDataset(DatasetRules.activated(fromPending: pending))
            if followed { meshNetwork = activeNetwork }
        }
        return true
    }

    /// `MeetPartition`: a partition with dataset `other` comes into range. With the same credentials the
    /// older Active Timestamp takes the newer dataset (``DatasetRules/adoptsOnMeeting(_:own:)``).
    /// - Returns: whether this node took `other`.
    func meetPartition(_ other: [UInt8]) async -> Bool {
        guard runtime.role.isAttached, DatasetRules.adoptsOnMeeting(other, own: persistent.activeDataset) else { return false }
        let followed = meshNetwork == nil || meshNetwork == activeNetwork
        await storeActiveDataset(DatasetRules.activated(fromPending: other))
        if followed { meshNetwork = activeNetwork }
        return true
    }

    /// `otInstanceErasePersistentInfo`: datasets and the stored Border Agent ID are gone (the running
    /// instance keeps its ID in memory until it restarts). No signal: there is no dataset to report.
    func erasePersistentInfo() {
        persistent.activeDataset = nil
        persistent.pendingDataset = nil
        persistent.borderAgentID = nil
        persistent.brULAPrefix = nil
        runtime.pendingSince = nil
        cancelTimer(.pendingDataset)
    }

    // MARK: graceful detach

    /// `otThreadDetachGracefully`: about a second when attached, at once otherwise. Callbacks queue up
    /// in ``RuntimeState/afterDetach``.
    func detachGracefully() {
        guard !runtime.detaching else { return }
        runtime.detaching = true
        let delay = runtime.role.isAttached ? configuration.detachDelay : .zero
        schedule(.gracefulDetach, after: delay) { agent in await agent.gracefulDetachDone() }
    }

    private func gracefulDetachDone() async {
        runtime.detaching = false
        let callbacks = runtime.afterDetach
        runtime.afterDetach = []
        if let join = runtime.joinWaiter {
            runtime.joinWaiter = nil
            fail(join, .abort)
        }
        let leaving = callbacks.contains { if case .leave = $0 { true } else { false } }
        await stopThread(signal: !leaving)
        for callback in callbacks {
            switch callback {
            case .disableThread:
                runtime.threadEnabled = .disabled
                if let waiter = runtime.setThreadEnabledWaiter {
                    runtime.setThreadEnabledWaiter = nil
                    reply(waiter)
                }
            case .join(let dataset, let waiter):
                erasePersistentInfo()
                await beginJoin(dataset, waiter: waiter)
            case .leave(let waiter):
                erasePersistentInfo()
                reply(waiter)
                // The agent flushes its reply and exits with status 7 about 20 ms later.
                schedule(.exit, after: .milliseconds(20)) { agent in
                    await agent.exitProcess()
                    await agent.scheduleRestart(after: agent.configuration.restartDelay)
                }
            }
        }
    }

    // MARK: host operations

    /// `RcpHost::Join` from the top: state checks, the same-network shortcut, else (after a graceful
    /// detach and erase if attached) set the dataset, start, and answer when attached.
    func beginJoin(_ tlvs: [UInt8], waiter: UInt64) async {
        switch runtime.threadEnabled {
        case .disabling: return fail(waiter, .busy)
        case .disabled: return fail(waiter, .invalidState)
        case .enabled: break
        }
        if runtime.role.isAttached, DatasetRules.sameNetwork(tlvs, persistent.activeDataset) {
            await storeActiveDataset(tlvs)
            return reply(waiter)
        }
        if runtime.role != .disabled {
            runtime.afterDetach.append(.join(dataset: tlvs, waiter: waiter))
            detachGracefully()
            return
        }
        await storeActiveDataset(tlvs)
        await startThread()
        if let earlier = runtime.joinWaiter { fail(earlier, .abort) }
        runtime.joinWaiter = waiter
    }

    /// `RcpHost::SetThreadEnabled`.
    func setThreadEnabled(_ enabled: Bool) async throws -> [DBusValue] {
        if runtime.threadEnabled == .disabling { throw OpenThreadError.busy.dbusError }
        if enabled {
            guard runtime.threadEnabled != .enabled else { return [] }
            if let dataset = persistent.activeDataset, !dataset.isEmpty, runtime.role == .disabled { await startThread() }
            runtime.threadEnabled = .enabled
            return []
        }
        runtime.threadEnabled = .disabling
        let waiter = newWaiter()
        runtime.setThreadEnabledWaiter = waiter
        runtime.afterDetach.append(.disableThread)
        detachGracefully()
        return try await wait(waiter)
    }

    /// `ThreadHelper::StartThreadStack`: Thread up unless it already is.
    func startThreadStack() async {
        if runtime.role == .disabled { await startThread() }
    }

    /// `FactoryReset` (and REST `DELETE /node`): Thread off, persistent data erased, a new OpenThread
    /// instance (``hostReset()``); the process keeps running.
    func factoryReset() async {
        await stopThread()
        erasePersistentInfo()
        await hostReset()
    }

    /// `RcpHost::Reset`: a new OpenThread instance. In-memory OpenThread state starts afresh (ePSKc,
    /// NAT64, PD, DNS upstream as the build starts them; uptime; the pending `Attach` is forgotten and
    /// never answered), the agent signals role `disabled`, and a stored network resumes. OTBR's own
    /// state (Thread-enabled, the applied feature flag bytes, vendor TXT, pending `Join`) stays;
    /// `Dhcp6PdState` is no longer signalled (OTBR does not register its callback with the new instance).
    func hostReset() async {
        cancelTimer(.attach)
        cancelTimer(.nat64)
        cancelTimer(.epskc)
        cancelTimer(.epskcGuard)
        cancelTimer(.gracefulDetach)
        let old = runtime
        let id = persistent.borderAgentID ?? Self.randomBytes(16)
        persistent.borderAgentID = id
        var fresh = RuntimeState(started: clock.now(), borderAgentID: id, epskcEnabled: configuration.epskcEnabledAtStart)
        epskcAdvertisedKey = nil
        fresh.threadEnabled = old.threadEnabled == .disabling ? .disabled : old.threadEnabled
        fresh.featureFlagBytes = old.featureFlagBytes
        fresh.vendorTXT = old.vendorTXT
        fresh.borderAgentEnabled = old.borderAgentEnabled
        fresh.joinWaiter = old.joinWaiter
        fresh.lastDhcp6State = old.lastDhcp6State
        fresh.dhcp6Signals = false
        fresh.pendingSince = old.pendingSince
        runtime = fresh
        runtime.brULAPrefix = loadOrGenerateBRULAPrefix()
        await applyBuildDefaults()
        for case .join(_, let waiter) in old.afterDetach { fail(waiter, .abort) }
        for case .leave(let waiter) in old.afterDetach { fail(waiter, .abort) }
        if let waiter = old.setThreadEnabledWaiter { reply(waiter) }
        await emitChanged("DeviceRole", .string(DeviceRole.disabled.wireName))
        await updateDhcp6()
        await resumeNetwork()
    }
}
