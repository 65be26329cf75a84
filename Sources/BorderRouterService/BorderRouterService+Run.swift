import TBRFoundation
import RouterFleet
import InternetAccessPolicy
import MatterCommissioning
import DeviceModel
import OpenThreadBR

extension BorderRouterService {
    /// Runs the service until the task is cancelled: lists the agents on the bus (each probed before
    /// ``waitUntilReady()`` returns), then follows agents appearing and vanishing, and runs every
    /// router's watchers and ePSKc timers, the internet-access policy reconciler and the Matter
    /// commissioning sessions, as child tasks. When it stops, every stream of the service ends. Open
    /// ePSKc sessions stay as they are (a new service recovers them with ``restoreEpskcSession(_:)``).
    /// - Throws: ``DeviceModel/HomeError`` `invalidState` when run twice, `unavailable` when the bus
    ///   cannot be watched.
    public func run() async throws {
        guard case .idle = phase else {
            throw HomeError(.invalidState, "this border router service has already run; create another one")
        }
        // Unbounded: one `adopt` per router added (none may be lost), the discovery's events (its own
        // stream is bounded) and one failure; the loop takes each at once.
        let (commands, continuation) = AsyncStream.makeStream(of: Command.self, bufferingPolicy: .unbounded)
        phase = .starting(continuation)
        defer { stop() }
        for router in routers.values { continuation.yield(.adopt(router)) }
        let discovery = AgentDiscovery(connection: connection)
        let events: DiscoveryStream
        let initial: [(ThreadInterfaceName, String)]
        do {
            events = try await discovery.events()
            var present: [(ThreadInterfaceName, String)] = []
            for name in try await discovery.agents() {
                if let owner = try await connection.nameOwner(of: name.busName) { present.append((name, owner)) }
            }
            initial = present
        } catch {
            throw HomeError(.unavailable, "cannot watch the bus for otbr-agents: \(error)")
        }
        for (name, owner) in initial { await register(name).router.agentAppeared(owner: owner) }
        // The policy reconciler follows the registry from here; the routers online now are its start.
        let registry = registryBroadcaster.subscribe(bufferLimit: 4096)
        let online = Set(routers.values.filter(\.isOnline).map(\.deviceID))
        let remote = Set(routers.values.filter { $0.channel.transport == .rest }.map(\.deviceID))
        // Inputs and settled() callers wait for the reconciler's loop from here; it and the commissioning
        // sessions run as children below and stop with the service.
        policy.open()
        defer { commissioning.finish() }
        phase = .running(continuation)
        logger.info("border router service running", [("routers", "\(routers.count)")])
        ready.open()

        try await withThrowingTaskGroup(of: Void.self) { group in
            let policy = self.policy, commissioning = self.commissioning
            group.addTask { await policy.run(registry: registry, online: online, remote: remote) }
            group.addTask { await commissioning.run(networks: self) }
            group.addTask {
                do {
                    for try await event in events { continuation.yield(.discovered(event)) }
                } catch {
                    continuation.yield(.discoveryFailed("\(error)"))
                }
            }
            var started: Set<DeviceID> = []
            for await command in commands {
                switch command {
                case .adopt(let router):
                    if started.insert(router.deviceID).inserted { group.addTask { await router.run() } }
                case .discovered(.appeared(let name, let owner)):
                    let router = register(name).router
                    if started.insert(router.deviceID).inserted { group.addTask { await router.run() } }
                    router.presenceChanged(.running(owner: owner))
                case .discovered(.vanished(let name)):
                    routers[DeviceID(stringLiteral: name.rawValue)]?.presenceChanged(.notRunning)
                case .discoveryFailed(let why):
                    group.cancelAll()
                    throw HomeError(.unavailable, "lost the bus while watching for otbr-agents: \(why)")
                }
            }
            group.cancelAll()
        }
    }

    /// Runs the service around `body`: starts ``run()``, waits until the agents present have been
    /// probed, runs `body`, then stops the service (its streams end).
    /// - Throws: what `body` or ``run()`` throws.
    public nonisolated func withRunning<R>(_ body: (BorderRouterService) async throws -> R) async throws -> R {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.run() }
            await waitUntilReady()
            if await isStopped {
                // run() ended before it was ready: report its error.
                try await group.next()
                throw HomeError(.unavailable, "the border router service stopped before it was ready")
            }
            do {
                let result = try await body(self)
                group.cancelAll()
                return result
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }

    /// Returns when ``run()`` has listed and probed the agents present at its start (or has stopped).
    public func waitUntilReady() async {
        switch phase {
        case .running, .stopped: return
        case .idle, .starting: await ready.wait()
        }
    }

    var isStopped: Bool { if case .stopped = phase { true } else { false } }

    /// Ends every stream and wakes anyone waiting for readiness.
    func stop() {
        switch phase {
        case .starting(let c), .running(let c): c.finish()
        case .idle, .stopped: break
        }
        phase = .stopped
        ready.open()
        for router in routers.values { router.finishStreams() }
        epskcBroadcaster.finish()
        registryBroadcaster.finish()
        commissioningBroadcaster.finish()
        logger.info("border router service stopped")
    }
}
