import TBRCoreServices
import BorderAgentDiscovery
import BorderRouterService
import DBus
import Firewall
import HTTPServer
import FoundationEssentials
import MDNS
import OpenThreadBR
import Store
import TBRDBusAPI
import TBRDBusAdapter
import TBRFoundation
import TBRLifecycle

// Serving: the parts tbrd runs until it stops, taking io.tbrd, and stopping in order
// (DaemonRuntime.swift builds the runtime).

extension DaemonRuntime {
    /// Serves until a graceful shutdown, cancellation, or a part failing; then stops in order (see
    /// ``Daemon``) and closes the connection, whatever happened.
    /// - Throws: ``DaemonStartError`` when `io.tbrd` cannot be taken; the error of a part that failed.
    func serve() async throws {
        var failure: (any Error)?
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                let service = self.service
                group.addTask { try await service.run() }
                let coreEvents = self.coreEvents, migrations = self.migrations, dbus = self.dbus
                group.addTask { await coreEvents.run() }
                group.addTask { await migrations.run() }
                group.addTask { await dbus.run() }
                let recovery = self.recovery, backups = self.backups, health = self.health
                group.addTask { await recovery.run() }
                group.addTask { await backups.run() }
                group.addTask { await health.run() }
                if browsesMDNS { group.addTask { await self.followBorderAgents() } }
                group.addTask { await self.runBackgroundWork() }
                // Ends on a graceful shutdown, or when the task is cancelled (the group's hard deadline).
                group.addTask { try? await gracefulShutdown() }
                if let interval = notifier.watchdogInterval {
                    group.addTask { await self.feedWatchdog(every: interval) }
                }

                await service.waitUntilReady()
                do {
                    // The HTTPS API first: an address it cannot serve stops tbrd before io.tbrd is taken.
                    try await startAPI()
                    try await publish()
                    try startMQTT()
                } catch {
                    group.cancelAll()
                    throw error
                }
                logger.notice("tbrd is ready", [("bus", "\(configuration.bus)"), ("name", TBRDBusAPI.busName.rawValue)])
                // Type=notify: systemd orders the units after tbrd, and answers `systemctl start`, now.
                notifier.notify("READY=1\nSTATUS=serving \(TBRDBusAPI.busName.rawValue)") { [logger] in
                    logger.warning("the service manager cannot be told that tbrd is ready", [("error", $0)])
                }

                // What start-up allocated and freed goes back to the kernel (docs/performance.md).
                ProcessHeap.returnFreePages()

                // The first child to end, a shutdown or a part that stopped, starts the stop.
                var partFailure: (any Error)?
                do { _ = try await group.next() } catch { partFailure = error }
                // A part that stopped (with an error or without) because the bus went away: the bus's
                // failure, not tbrd's.
                let busLost = await !connection.isConnected
                notifier.notify("STOPPING=1")
                await stopServing()
                group.cancelAll()
                while !group.isEmpty { _ = try? await group.next() }
                if busLost { throw DaemonStopError.busLost(partFailure.map { "\($0)" } ?? "the bus closed the connection") }
                if let partFailure { throw partFailure }
            }
        } catch {
            failure = error
        }
        await mdns.close()
        await connection.close()
        if let failure { throw failure }
    }

    /// Registers the known routers, publishes the D-Bus API (every object, then the name) and recovers
    /// the journal's open ePSKc sessions.
    func publish() async throws {
        await rememberKnownRouters()
        do { try await dbus.publish() } catch {
            switch error {
            case .structuresUnreadable(let why):
                throw DaemonStartError.stateUnusable(TBRStore.databasePath(inStateDirectory: configuration.stateDirectory), why)
            case .nameRefused(let why): throw DaemonStartError.nameRefused(TBRDBusAPI.busName.rawValue, why)
            case .alreadyRunning(let owner): throw DaemonStartError.alreadyRunning(TBRDBusAPI.busName.rawValue, owner)
            }
        }
        await restoreOpenSessions()
    }

    /// Leaves the bus name first (new clients no longer reach tbrd), refuses further calls, and lets the
    /// calls in flight finish for up to ``DaemonConfiguration/shutdownTimeout``.
    func stopServing() async {
        await dbus.releaseName()
        await stopAPI()
        await stopMQTT()
        calls.close()
        let pending = calls.inFlight
        if pending > 0 {
            logger.info("stopping: waiting for calls in flight", [("calls", "\(pending)")])
            if await !calls.drained(within: .seconds(configuration.shutdownTimeout), clock: clock) {
                logger.warning(
                    "stopping: calls still running are cut off",
                    [("calls", "\(calls.inFlight)"), ("after-seconds", "\(configuration.shutdownTimeout)")])
                return
            }
        }
        // The gate counts a call as answered when its handler returns; the DBus layer hands the reply
        // to libdbus just after. Waiting for that means the close (which flushes) loses no reply.
        await connection.handlersFinished()
    }

    /// Routers seen in earlier runs are listed again (offline until their agents appear).
    func rememberKnownRouters() async {
        let known: [KnownRouter]
        do { known = try await store.knownRouters() } catch {
            logger.error("could not read the known routers", [("error", "\(error)")])
            return
        }
        var snapshots: [DeviceID: RouterSnapshot] = [:]
        for router in known {
            let id = router.id
            if let bytes = router.lastKnown {
                do { snapshots[id] = try JSONDecoder().decode(RouterSnapshot.self, from: Data(bytes)) } catch {
                    logger.warning("what a router last reported cannot be read back", [("router", router.id.rawValue)])
                }
            }
            if router.restURL != nil { continue }  // CoreStructures.serveRemoteRouters
            do { try await service.rememberRouter(id) } catch {
                logger.warning("a known router cannot be registered", [("router", router.id.rawValue), ("error", error.message)])
            }
        }
        await structureService.serveRemoteRouters(known)
        await routers.infoCache.restore(snapshots)
    }

    /// The journal's open sessions (activated, never deactivated) go back to the service, which detects
    /// and reports their end as if tbrd had never stopped.
    func restoreOpenSessions() async {
        let open: [EpskcJournalEntry]
        do { open = try await store.openEpskcSessions() } catch {
            logger.error("could not read open ephemeral-key sessions from the journal", [("error", "\(error)")])
            return
        }
        for entry in open {
            guard let bytes = entry.restoreRecord,
                let record = try? JSONDecoder().decode(EpskcSessionRecord.self, from: Data(bytes))
            else {
                logger.warning("an open ephemeral-key session in the journal cannot be recovered", [("router", entry.router.rawValue)])
                continue
            }
            do {
                try await service.restoreEpskcSession(record)
                logger.notice("recovered an open ephemeral-key session", [("router", entry.router.rawValue), ("sequence", "\(entry.sequence)")])
            } catch {
                logger.warning("could not recover an ephemeral-key session", [("router", entry.router.rawValue), ("error", "\(error)")])
            }
        }
    }

    /// Runs each piece of ``backgroundWork`` as a child task until tbrd stops (which cancels them).
    func runBackgroundWork() async {
        await withDiscardingTaskGroup { group in
            for await work in backgroundWork.stream { group.addTask { await work() } }
        }
    }

    /// Hands `work` to ``runBackgroundWork()``; false (nothing done) when ``backgroundLimit`` pieces
    /// already wait to start.
    nonisolated func inBackground(_ work: @escaping BackgroundWork) -> Bool {
        if case .enqueued = backgroundWork.continuation.yield(work) { return true }
        return false
    }
}
