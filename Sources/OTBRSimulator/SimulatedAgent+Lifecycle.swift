import DBus
import MeshCoP
import OpenThreadBR
import TBRFoundation

extension SimulatedAgent {
    /// Starts one agent process: fresh in-memory state, a new connection, the objects, the name, the
    /// REST server (`--rest`, on the port of its first start), `Ready`, then the automatic resume of a
    /// stored network (which, as on the real agent, does not set the host's "Thread enabled" state).
    /// - Throws: ``DBusError`` when the bus or the name cannot be had, `HTTPServerError` when the REST
    ///   address cannot be served.
    func startProcess(firstStart: Bool) async throws {
        life &+= 1
        let id = persistent.borderAgentID ?? Self.randomBytes(16)
        persistent.borderAgentID = id
        runtime = RuntimeState(started: clock.now(), borderAgentID: id, epskcEnabled: configuration.epskcEnabledAtStart)
        runtime.brULAPrefix = loadOrGenerateBRULAPrefix()
        epskcAdvertisedKey = nil
        await applyBuildDefaults()
        let conn = try await Connection(bus: bus, logger: logger.child("dbus"))
        // otbr-agent handles one D-Bus message at a time: a read sent just before a command sees the
        // state before it. The simulator's handlers start in arrival order to answer the same way.
        await conn.handleCallsInArrivalOrder()
        await conn.export(agentInterfaces(), at: interfaceName.objectPath)
        await conn.export([controlInterface()], at: Self.controlPath(interfaceName))
        let reply: NameRequestReply
        do {
            reply = try await conn.requestName(interfaceName.busName, flags: [.replaceExisting])
        } catch {
            await conn.close()
            throw error
        }
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            await conn.close()
            throw DBusError(.failed, "another connection owns \(interfaceName.busName) and does not allow replacement")
        }
        do {
            try startREST()
        } catch {
            await conn.close()
            throw error
        }
        connection = conn
        logger.info("simulated otbr-agent is on the bus", [("interface", interfaceName.rawValue), ("unique", conn.uniqueName)])
        do {
            try conn.emit(path: interfaceName.objectPath, interface: OTBRNames.interface, member: OTBRNames.readySignal)
        } catch {
            logger.warning("could not emit Ready", [("error", "\(error)")])
        }
        if firstStart, configuration.initialDataset != nil {
            runtime.threadEnabled = .enabled
            await setRole(.leader, signal: false)
        } else {
            await resumeNetwork()
        }
        if let pending = persistent.pendingDataset { schedulePendingDataset(pending) }
        await advertise()
    }

    /// `TryResumeNetwork`: with a stored network (PAN ID set), Thread comes up on its own.
    func resumeNetwork() async {
        guard let dataset = persistent.activeDataset, let decoded = DatasetRules.decode(dataset),
            let pan = decoded.panID, pan != .broadcast
        else { return }
        await startThread()
    }

    /// Ends the agent process: the connection closes (outstanding calls get `NoReply` from the bus), the
    /// REST server stops (connections refused), timers of this life stop, and everything in memory is
    /// forgotten at the next start.
    func exitProcess() async {
        life &+= 1
        for (key, timer) in timers where key != .restart {
            timer.task.cancel()
            timers[key] = nil
        }
        if let conn = connection {
            connection = nil
            await conn.close()
            logger.info("simulated otbr-agent left the bus", [("interface", interfaceName.rawValue)])
        }
        await stopREST()
        stopEpskcTransport()
        // The process is gone: replies it owed never come.
        replies.failAll(CancellationError())
    }

    /// Brings the process back after `delay`, retrying while the bus refuses.
    func scheduleRestart(after delay: Duration) {
        schedule(.restart, after: delay) { agent in await agent.restartNow() }
    }

    private func restartNow() async {
        guard !stopped, connection == nil else { return }
        do {
            try await startProcess(firstStart: false)
        } catch {
            logger.warning("simulated otbr-agent could not restart", [("error", "\(error)")])
            scheduleRestart(after: configuration.restartDelay)
        }
    }

    // MARK: timers

    /// Runs `action` after `delay`, replacing a pending timer of the same key. A timer does nothing if
    /// the process it belongs to has exited meanwhile.
    func schedule(_ key: TimerKey, after delay: Duration, _ action: @escaping @Sendable (SimulatedAgent) async -> Void) {
        timers[key]?.task.cancel()
        nextTimerToken &+= 1
        let token = nextTimerToken
        let life = self.life
        let clock = self.clock
        let task = Task { [weak self] in
            do { try await clock.sleep(for: delay) } catch { return }
            await self?.fire(key, token: token, life: life, action)
        }
        timers[key] = ScheduledTimer(token: token, task: task)
    }

    private func fire(_ key: TimerKey, token: UInt64, life: UInt64, _ action: @Sendable (SimulatedAgent) async -> Void) async {
        guard timers[key]?.token == token, life == self.life else { return }
        timers[key] = nil
        await action(self)
        await advertise()
    }

    /// Cancels the timer of `key`, if any.
    func cancelTimer(_ key: TimerKey) {
        timers.removeValue(forKey: key)?.task.cancel()
    }

    // MARK: replies that come later

    /// A new reply slot; resolve it with ``resolve(_:_:)`` and wait on it with ``wait(_:)``.
    func newWaiter() -> UInt64 {
        let id = nextWaiterID
        nextWaiterID &+= 1
        replies.expect(id)
        return id
    }

    /// Waits for slot `id` to be resolved (the D-Bus reply), or for the process to exit.
    func wait(_ id: UInt64) async throws -> [DBusValue] {
        try await replies.wait(for: id)
    }

    /// Answers slot `id` (if it is still open).
    func resolve(_ id: UInt64, _ result: Result<[DBusValue], any Error>) {
        replies.deliver(result, to: id)
    }

    /// Answers slot `id` with `values`.
    func reply(_ id: UInt64, _ values: [DBusValue] = []) { resolve(id, .success(values)) }

    /// Answers slot `id` with the agent's error `error`.
    func fail(_ id: UInt64, _ error: OpenThreadError) { resolve(id, .failure(error.dbusError)) }

    // MARK: signals

    /// Emits `PropertiesChanged` for one property, as the agent does (one property per signal, nothing
    /// invalidated).
    func emitChanged(_ name: MemberName, _ value: DBusValue) async {
        guard let connection else { return }
        do {
            try connection.emitPropertiesChanged(
                path: interfaceName.objectPath, interface: OTBRNames.interface, changed: [(name, value)])
        } catch {
            logger.warning("could not emit PropertiesChanged", [("property", name.rawValue), ("error", "\(error)")])
        }
    }

    // MARK: helpers

    /// The control object's path, `/io/tbrd/Simulator/<if>`.
    static func controlPath(_ name: ThreadInterfaceName) -> ObjectPath {
        (try? ObjectPath("/io/tbrd/Simulator/" + name.rawValue)) ?? .root
    }

    /// `count` bytes from the system CSPRNG.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }
}

/// A pending timer and the token that identifies this scheduling of it.
struct ScheduledTimer: Sendable {
    let token: UInt64
    let task: Task<Void, Never>
}
