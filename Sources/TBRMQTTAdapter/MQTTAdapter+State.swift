import MQTT
import MQTTMapping
import TBRCore
import TBRDocuments
import TBRFoundation

// The retained state: tbrd's state and info, each router's and structure's documents, and the discovery
// configs, published by one worker as the core changes and at each connection; never on a timer.

extension MQTTAdapter {
    /// Publishes what is asked for, in order, until stopped.
    func publishState() async {
        for await publication in work.stream {
            switch publication {
            case .all: await publishAll()
            case .router(let id):
                let changedSet = await publishRouter(id)
                if changedSet { await publishInfo() }
            case .structures:
                await publishStructures()
                await publishInfo()
            case .discovery: await publishDiscovery()
            case .info: await publishInfo()
            }
            // Something was not asked for (the queue was full): it may have been anything, so everything.
            if published.withLock({ p in defer { p.behind = false }; return p.behind }) { await publishAll() }
        }
    }

    /// tbrd's state, every router and structure, the discovery configs and the info, all sent again.
    private func publishAll() async {
        published.withLock { $0.payloads.removeAll() }
        client.publish(MQTTMessage(topic: settings.topics.bridgeState, text: "online", retain: true))
        // Each router's and structure's configs with its documents (one read of each router), then tbrd's own.
        await publishRouters(withDiscovery: true)
        await publishStructures(withDiscovery: true)
        if let discovery { for config in discovery.bridge() { publish(config) } }
        await publishInfo()
    }

    /// `document` on `topic`, retained, unless it is what was last sent there.
    private func retained(_ topic: String, _ document: some Encodable) {
        guard let payload = try? Self.encode(document) else { return }
        let changed = published.withLock { $0.payloads.updateValue(payload, forKey: topic) != payload }
        if changed { client.publish(MQTTMessage(topic: topic, payload: payload, retain: true)) }
    }

    /// An empty retained message: the broker forgets the topic.
    private func clear(_ topic: String) {
        published.withLock { _ = $0.payloads.removeValue(forKey: topic) }
        client.publish(MQTTMessage(topic: topic, payload: [], retain: true))
    }

    /// Every router's documents (and its discovery configs when `withDiscovery`, else only for those new);
    /// those gone since are cleared.
    private func publishRouters(withDiscovery: Bool) async {
        let ids = Set(await core.routers.routerListings().map(\.id))
        let gone = published.withLock { p in
            defer { p.routers = ids }
            return p.routers.subtracting(ids)
        }
        for id in gone { clearRouter(id) }
        for id in ids.sorted() { _ = await publishRouter(id, withDiscovery: withDiscovery) }
    }

    /// Router `id`'s documents (and its discovery when it is new), or their clearing when it is gone;
    /// whether the set of routers changed.
    @discardableResult
    func publishRouter(_ id: String, withDiscovery: Bool = false) async -> Bool {
        let topics = settings.topics
        let info: RouterInfo
        do { info = try await core.routers.routerInfo(id) } catch let error as CoreError where error.condition == .notFound {
            let removed = published.withLock { $0.routers.remove(id) != nil }
            if removed { clearRouter(id) }
            return removed
        } catch {
            logger.warning("MQTT: a router could not be read", [("router", id), ("error", "\(error)")])
            return false
        }
        retained(topics.router(info.id), info)
        if let reading = try? await core.health.reading(of: info.id) { retained(topics.routerStatus(info.id), reading) }
        let added = published.withLock { $0.routers.insert(info.id).inserted }
        if added || withDiscovery, let discovery { for config in discovery.router(Self.device(info)) { publish(config) } }
        return added
    }

    private static func device(_ info: RouterInfo) -> HomeAssistantDiscovery.RouterDevice {
        HomeAssistantDiscovery.RouterDevice(
            id: info.id, manufacturer: info.basicInformation.vendorName, model: info.basicInformation.productName,
            softwareVersion: info.basicInformation.softwareVersion)
    }

    private func clearRouter(_ id: String) {
        clear(settings.topics.router(id))
        clear(settings.topics.routerStatus(id))
        if let discovery { for topic in discovery.routerTopics(id) { clear(topic) } }
    }

    /// Every structure's documents (`structure show` and its network directory), and its discovery
    /// configs when `withDiscovery` (else only for those new); those deleted since are cleared.
    private func publishStructures(withDiscovery: Bool = false) async {
        let views: [StructureView]
        do { views = try await core.structures.structureViews() } catch {
            logger.warning("MQTT: the structures could not be read", [("error", "\(error)")])
            return
        }
        let names = Set(views.map(\.name))
        let (gone, added) = published.withLock { p in
            defer { p.structures = names }
            return (p.structures.subtracting(names), names.subtracting(p.structures))
        }
        let topics = settings.topics
        for name in gone {
            clear(topics.structure(name))
            clear(topics.structureNetworks(name))
            if let discovery { for topic in discovery.structureTopics(name) { clear(topic) } }
        }
        for view in views {
            retained(topics.structure(view.name), view)
            if let networks = try? await core.structures.networks(of: view.name) { retained(topics.structureNetworks(view.name), networks) }
            if withDiscovery || added.contains(view.name), let discovery { for config in discovery.structure(view.name) { publish(config) } }
        }
    }

    /// Every discovery config: tbrd's, each router's, each structure's.
    private func publishDiscovery() async {
        guard let discovery else { return }
        for config in discovery.bridge() { publish(config) }
        for listing in await core.routers.routerListings() {
            guard let info = try? await core.routers.routerInfo(listing.id) else { continue }
            for config in discovery.router(Self.device(info)) { publish(config) }
        }
        for name in published.withLock({ $0.structures }).sorted() {
            for config in discovery.structure(name) { publish(config) }
        }
    }

    private func publish(_ config: HomeAssistantDiscovery.Config) {
        client.publish(MQTTMessage(topic: config.topic, text: config.payload.serialized, retain: true))
    }

    /// `<base>/bridge/info`: tbrd's version, the API's, its routers and structures, open problems and the
    /// events the broker missed.
    func publishInfo() async {
        let problems = (try? await core.health.problems().count) ?? 0
        let (routers, structures) = published.withLock { ($0.routers.sorted(), $0.structures.sorted()) }
        retained(
            settings.topics.bridgeInfo,
            BridgeInfo(
                version: settings.version, apiVersion: 1, routers: routers, structures: structures, problems: problems,
                droppedEvents: client.droppedWhileOffline, admin: settings.admin, epskc: settings.epskc))
    }

    /// `<base>/bridge/info`'s document.
    struct BridgeInfo: Encodable {
        var version: String
        var apiVersion: Int
        var routers: [String]
        var structures: [String]
        var problems: Int
        var droppedEvents: Int
        /// Whether `mqtt-admin` and `mqtt-epskc` let those requests through.
        var admin: Bool
        var epskc: Bool
    }
}
