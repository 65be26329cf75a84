/// The services of one browsed type, as a sans-IO state machine: Avahi's browser and resolver events go
/// in, and out come the resolvers to start or stop and the ``ServiceEvent``s to report.
///
/// Avahi reports a service once per interface and IP protocol it is seen on (a *sighting*); each
/// sighting gets its own resolver, which keeps following the service (a new FOUND when its TXT, port or
/// address changes; FAILURE when its records expire and nothing answers within Avahi's 5 s). The table
/// merges the sightings of one instance into one ``DiscoveredService``:
/// - it is **added** when its first sighting resolves, and **updated** when the merged view changes;
/// - it is **removed** (`withdrawn`) when its last sighting is withdrawn, or (`unresolvable`) when no
///   sighting resolves any more although the browser still lists it;
/// - when avahi-daemon goes away, the sightings are forgotten but the services stay reported; after the
///   daemon is back and its browser has said "all for now", a service not seen again is removed
///   (`notFoundAfterRestart`), and one seen again is updated only if it changed.
struct ServiceTable: Sendable {
    /// One sighting: an instance seen on one interface with one IP protocol.
    struct Sighting: Hashable, Sendable {
        var key: ServiceKey
        var interface: Int32
        /// Avahi's protocol: 0 IPv4, 1 IPv6.
        var ipProtocol: Int32
    }

    /// What a resolver found.
    struct Resolution: Hashable, Sendable {
        var hostName: String
        var address: String?
        var port: UInt16
        var txt: [UInt8]
        var isLocal: Bool
    }

    /// What the driver must do.
    enum Directive: Hashable, Sendable {
        case resolve(Sighting)
        case stopResolving(Sighting)
        case emit(ServiceEvent)
    }

    private enum SightingState: Hashable, Sendable {
        case resolving
        /// Resolved; `serial` orders resolutions, the latest one gives host, port and TXT.
        case resolved(Resolution, serial: UInt64)
        case failed
    }

    private struct Entry: Sendable {
        var sightings: [Sighting: SightingState] = [:]
        var reported: DiscoveredService?
        /// Reported before the daemon went away and not seen since.
        var stale = false
    }

    let type: ServiceType
    private var entries: [ServiceKey: Entry] = [:]
    private var serial: UInt64 = 0
    /// Between the daemon going away and the reconciliation after it came back (``allForNow()``).
    private(set) var recovering = false

    init(type: ServiceType) { self.type = type }

    /// The services reported now, sorted by name.
    var services: [DiscoveredService] { entries.keys.sorted().compactMap { entries[$0]?.reported } }

    /// The browser found `sighting`: resolve it (once).
    mutating func found(_ sighting: Sighting) -> [Directive] {
        var entry = entries[sighting.key] ?? Entry()
        guard entry.sightings[sighting] == nil else { return [] }
        entry.sightings[sighting] = .resolving
        entry.stale = false
        entries[sighting.key] = entry
        return [.resolve(sighting)]
    }

    /// The browser says `sighting` is gone.
    mutating func removed(_ sighting: Sighting) -> [Directive] {
        guard var entry = entries[sighting.key], entry.sightings.removeValue(forKey: sighting) != nil else { return [] }
        entries[sighting.key] = entry
        return [.stopResolving(sighting)] + reconcile(sighting.key)
    }

    /// The resolver of `sighting` found it (again).
    mutating func resolved(_ sighting: Sighting, _ resolution: Resolution) -> [Directive] {
        guard entries[sighting.key]?.sightings[sighting] != nil else { return [] }
        serial &+= 1
        entries[sighting.key]?.sightings[sighting] = .resolved(resolution, serial: serial)
        return reconcile(sighting.key)
    }

    /// The resolver of `sighting` failed (a timeout: nothing answers for the service's records).
    mutating func resolveFailed(_ sighting: Sighting) -> [Directive] {
        guard entries[sighting.key]?.sightings[sighting] != nil else { return [] }
        entries[sighting.key]?.sightings[sighting] = .failed
        return reconcile(sighting.key)
    }

    /// avahi-daemon went away: every browser and resolver is gone with it. Reported services stay until
    /// the daemon's browser, once back, has had its say (``allForNow()``).
    mutating func daemonLost() {
        recovering = true
        for key in entries.keys {
            entries[key]?.sightings.removeAll()
            entries[key]?.stale = true
        }
        entries = entries.filter { $0.value.reported != nil }
    }

    /// The browser has reported what it knows for now. After a daemon restart, the services it did not
    /// find again are removed.
    mutating func allForNow() -> [Directive] {
        guard recovering else { return [] }
        recovering = false
        var directives: [Directive] = []
        for key in entries.keys.sorted() {
            guard let entry = entries[key], entry.stale else { continue }
            entries[key] = nil
            if let reported = entry.reported { directives.append(.emit(.removed(reported, .notFoundAfterRestart))) }
        }
        return directives
    }

    /// Compares the merged view of `key` with what was reported and says what changed.
    private mutating func reconcile(_ key: ServiceKey) -> [Directive] {
        guard var entry = entries[key] else { return [] }
        defer { entries[key] = entry.sightings.isEmpty && entry.reported == nil ? nil : entry }
        if let view = merged(key, entry) {
            let before = entry.reported
            entry.reported = view
            if before == nil { return [.emit(.added(view))] }
            return before == view ? [] : [.emit(.updated(view))]
        }
        guard let reported = entry.reported else { return [] }
        if entry.sightings.isEmpty {
            if entry.stale { return [] }
            entry.reported = nil
            return [.emit(.removed(reported, .withdrawn))]
        }
        if entry.sightings.values.contains(.resolving) { return [] }
        entry.reported = nil
        return [.emit(.removed(reported, .unresolvable))]
    }

    /// The sightings of `key` that resolved, merged: host, port and TXT of the latest resolution, the
    /// addresses and interfaces of all.
    private func merged(_ key: ServiceKey, _ entry: Entry) -> DiscoveredService? {
        var latest: (Resolution, UInt64)?
        var addresses: Set<String> = []
        var interfaces: Set<Int32> = []
        for (sighting, state) in entry.sightings {
            guard case .resolved(let r, let serial) = state else { continue }
            if latest == nil || serial > latest!.1 { latest = (r, serial) }
            if let a = r.address { addresses.insert(a) }
            interfaces.insert(sighting.interface)
        }
        guard let (r, _) = latest else { return nil }
        return DiscoveredService(
            name: key.name, type: key.type, domain: key.domain, hostName: r.hostName, addresses: addresses.sorted(),
            port: r.port, txt: r.txt, interfaces: interfaces.sorted(), isLocal: r.isLocal)
    }
}
