import BorderAgentDiscovery
import BorderRouterService
import MDNS
import TBRFoundation

// mDNS: the Border Agents avahi-daemon sees on the network, matched to tbrd's routers. Their names
// feed BasicInformation, and their `_meshcop-e._udp` services coming and going feed the ePSKc sessions
// (the end of a key, and keys started by someone else).

extension DaemonRuntime {
    /// What the follower learns, from the browser and from the routers.
    enum AdvertisementInput: Sendable {
        case agents(BorderAgentEvent, BorderAgentTable)
        case router(DeviceID, AdvertisementTracker.Identity)
    }

    /// Browses through avahi-daemon (waiting for it, and browsing again after it restarts) until the
    /// task is cancelled, and tells the service what the network says about its routers.
    func followBorderAgents() async {
        await mdns.start()
        let service = self.service
        let mdns = self.mdns
        // Each input carries the whole state it is about (the table of agents, a router's identity), so a
        // follower 256 behind keeps the newest and loses only steps in between.
        let (inputs, continuation) = AsyncStream.makeStream(of: AdvertisementInput.self, bufferingPolicy: .bufferingNewest(256))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await BorderAgentBrowser(client: mdns).run { event, table in continuation.yield(.agents(event, table)) }
                continuation.finish()
            }
            group.addTask { await Self.followIdentities(of: service, into: continuation) }
            var tracker = AdvertisementTracker()
            for await input in inputs {
                let actions: [AdvertisementTracker.Action]
                switch input {
                case .agents(let event, let table):
                    log(event)
                    borderAgentsSeen.saw(table.all)
                    actions = tracker.agentsChanged(table)
                case .router(let id, let identity):
                    actions = tracker.routerChanged(id, identity)
                }
                for action in actions { await carryOut(action, instances: tracker.instances) }
            }
            group.cancelAll()
        }
    }

    private func carryOut(_ action: AdvertisementTracker.Action, instances: [DeviceID: String]) async {
        switch action {
        case .names(let id, let names):
            await advertisedNames.set(names, for: id)
            await routers.infoCache.invalidate(id)
            // Names come from the network: shown sanitized.
            logger.info(
                "a router's advertised names",
                [("router", id.rawValue), ("instance", Quoted.sanitized(instances[id] ?? "", limit: 80)),
                 ("vendor", Quoted.sanitized(names.vendorName ?? "", limit: 80)),
                 ("product", Quoted.sanitized(names.productName ?? "", limit: 80))])
        case .ephemeralKeyServiceAppeared(let id):
            logger.debug("a router's _meshcop-e._udp service appeared", [("router", id.rawValue)])
            await service.epskcServiceAppeared(router: id, at: clock.now())
        case .ephemeralKeyServiceWithdrawn(let id):
            logger.debug("a router's _meshcop-e._udp service went away", [("router", id.rawValue)])
            await service.epskcServiceWithdrawn(router: id, at: clock.now())
        }
    }

    private func log(_ event: BorderAgentEvent) {
        switch event {
        case .added(let agent):
            logger.debug(
                "border agent found",
                [("instance", Quoted.sanitized(agent.instanceName, limit: 80)), ("problems", "\(agent.txt.problems.count)")])
        case .updated(let agent):
            logger.debug("border agent changed", [("instance", Quoted.sanitized(agent.instanceName, limit: 80))])
        case .removed(let agent, let reason):
            logger.debug(
                "border agent gone", [("instance", Quoted.sanitized(agent.instanceName, limit: 80)), ("reason", reason.rawValue)])
        case .ephemeralKeyServiceAppeared, .ephemeralKeyServiceWithdrawn:
            break
        }
    }

    /// Follows each router's Border Agent ID and extended address (every router known now and every one
    /// added later), yielding them when they change.
    private static func followIdentities(
        of service: BorderRouterService, into continuation: AsyncStream<AdvertisementInput>.Continuation
    ) async {
        let added = service.registryEvents()
        let known = await service.deviceIDs()
        await withDiscardingTaskGroup { group in
            var followed: Set<DeviceID> = []
            func follow(_ id: DeviceID) async {
                guard followed.insert(id).inserted, let updates = await service.summaryUpdates(of: id) else { return }
                group.addTask {
                    var last: AdvertisementTracker.Identity?
                    for await summary in updates {
                        let identity = AdvertisementTracker.Identity(
                            borderAgentID: summary.borderAgentID, extendedAddress: summary.extendedAddress)
                        if identity != last { continuation.yield(.router(id, identity)) }
                        last = identity
                    }
                }
            }
            for id in known { await follow(id) }
            for await event in added {
                if case .added(let id) = event { await follow(id) }
            }
        }
    }
}
