public import TBRFoundation

/// One browse: its table, its stream, and the Avahi objects of the current connection.
struct Browse {
    var table: ServiceTable
    let continuation: AsyncStream<ServiceEvent>.Continuation
    let drops: DropCounter
    var browser: BrowserHandle?
    var resolvers: [ServiceTable.Sighting: ResolverHandle] = [:]
    /// Events did not fit in the stream: nothing more is yielded until a ``ServiceEvent/resynchronized(_:)`` fits.
    var behind = false
}

extension MDNSClient {
    /// Browses for services of `type` and resolves each, from now until the stream is dropped or its
    /// task cancelled. Services already known to avahi-daemon come first (from its cache), then changes
    /// as they happen. While the daemon is not running nothing comes; the browse starts when it does.
    /// - Parameter bufferLimit: how many undelivered events the stream holds before dropping (at least 1).
    public func browse(_ type: ServiceType, bufferLimit: Int = 256) -> ServiceEventStream {
        let limit = max(1, bufferLimit)
        let (stream, continuation) = AsyncStream.makeStream(of: ServiceEvent.self, bufferingPolicy: .bufferingOldest(limit))
        let drops = DropCounter()
        guard !isClosed else {
            continuation.finish()
            return ServiceEventStream(base: stream, drops: drops, bufferLimit: limit)
        }
        let id = newToken()
        browses[id] = Browse(table: ServiceTable(type: type), continuation: continuation, drops: drops)
        continuation.onTermination = { [weak self] _ in self?.later { $0.endBrowse(id) } }
        if serverState != nil { startBrowser(id) }
        return ServiceEventStream(base: stream, drops: drops, bufferLimit: limit)
    }

    /// Starts a browser for every browse that has none (after connecting, or when the daemon is back).
    func startBrowsers() {
        for id in browses.keys.sorted() where browses[id]?.browser == nil { startBrowser(id) }
    }

    private func startBrowser(_ id: UInt64) {
        guard let client, let type = browses[id]?.table.type else { return }
        let token = newToken()
        do {
            browses[id]?.browser = try BrowserHandle.open(client: client, type: type, context: context(token))
            browserOwners[token] = id
        } catch {
            logger.warning("cannot browse", [("type", type.rawValue), ("error", error.message)])
        }
    }

    private func endBrowse(_ id: UInt64) {
        guard let browse = browses.removeValue(forKey: id) else { return }
        if let token = browse.browser?.context.token { browserOwners[token] = nil }
        for resolver in browse.resolvers.values { resolverOwners[resolver.context.token] = nil }
    }

    /// A browser reported something (posted by its callback).
    func browserEvent(token: UInt64, _ input: BrowserInput) {
        guard let id = browserOwners[token], let type = browses[id]?.table.type else { return }
        let directives: [ServiceTable.Directive]
        switch input {
        case .found(let name, let domain, let interface, let ipProtocol):
            let sighting = ServiceTable.Sighting(
                key: ServiceKey(name: name, type: type, domain: domain), interface: interface, ipProtocol: ipProtocol)
            directives = browses[id]?.table.found(sighting) ?? []
        case .removed(let name, let domain, let interface, let ipProtocol):
            let sighting = ServiceTable.Sighting(
                key: ServiceKey(name: name, type: type, domain: domain), interface: interface, ipProtocol: ipProtocol)
            directives = browses[id]?.table.removed(sighting) ?? []
        case .allForNow:
            // After a daemon restart, publishers on this host (otbr-agent publishing through the same
            // avahi-daemon) register again, and Avahi probes their names for about a second: what has
            // not come back is reported gone only after `restartSettle`.
            if browses[id]?.table.recovering == true, let token = client?.context.token {
                after(restartSettle) { $0.settleAfterRestart(id, client: token) }
            }
            directives = []
        case .failed(let code):
            logger.warning("browsing failed", [("type", type.rawValue), ("error", MDNSError.avahi(code, "browsing").message)])
            directives = []
        }
        perform(directives, in: id)
    }

    /// The browse of `id` reconciles what it found again after a daemon restart (if still connected by
    /// the client of `token`).
    private func settleAfterRestart(_ id: UInt64, client token: UInt64) {
        guard client?.context.token == token else { return }
        perform(browses[id]?.table.allForNow() ?? [], in: id)
    }

    /// A resolver reported something (posted by its callback).
    func resolverEvent(token: UInt64, _ input: ResolverInput) {
        guard let (id, sighting) = resolverOwners[token] else { return }
        let directives: [ServiceTable.Directive]
        switch input {
        case .found(let resolution):
            directives = browses[id]?.table.resolved(sighting, resolution) ?? []
        case .failed(let code):
            logger.debug(
                "a service does not resolve",
                [("name", Quoted.sanitized(sighting.key.name, limit: 80)), ("type", sighting.key.type.rawValue),
                 ("error", MDNSError.avahi(code, "resolving").message)])
            directives = browses[id]?.table.resolveFailed(sighting) ?? []
        }
        perform(directives, in: id)
    }

    /// How often a browse whose consumer fell behind tries to deliver its snapshot.
    static let resyncRetry: Duration = .milliseconds(100)

    /// Delivers every service known now to a browse whose consumer fell behind, once it has room; tries
    /// again later while it has none.
    private func resynchronize(_ id: UInt64) {
        guard let browse = browses[id], browse.behind else { return }
        if case .dropped = browse.continuation.yield(.resynchronized(browse.table.services)) {
            after(Self.resyncRetry) { $0.resynchronize(id) }
        } else {
            browses[id]?.behind = false
            logger.notice("a browse's consumer fell behind; it was resynchronised", [("type", browse.table.type.rawValue), ("dropped", "\(browse.drops.count)")])
        }
    }

    /// Carries out the table's directives, in order.
    private func perform(_ directives: [ServiceTable.Directive], in id: UInt64) {
        for directive in directives {
            switch directive {
            case .resolve(let sighting):
                guard let client else { continue }
                let token = newToken()
                do {
                    browses[id]?.resolvers[sighting] = try ResolverHandle.open(client: client, sighting: sighting, context: context(token))
                    resolverOwners[token] = (id, sighting)
                } catch {
                    logger.debug("cannot resolve a service", [("name", Quoted.sanitized(sighting.key.name, limit: 80)), ("error", error.message)])
                    perform(browses[id]?.table.resolveFailed(sighting) ?? [], in: id)
                }
            case .stopResolving(let sighting):
                if let resolver = browses[id]?.resolvers.removeValue(forKey: sighting) {
                    resolverOwners[resolver.context.token] = nil
                }
            case .emit(let event):
                guard let browse = browses[id] else { continue }
                guard !browse.behind else {
                    // The snapshot that ends the backlog will carry this change.
                    browse.drops.increment()
                    continue
                }
                if case .dropped = browse.continuation.yield(event) {
                    browse.drops.increment()
                    browses[id]?.behind = true
                    after(Self.resyncRetry) { $0.resynchronize(id) }
                }
            }
        }
    }
}
