package import TBRFoundation
package import DeviceModel
package import Firewall

/// The internet-access policy of every structure as a sans-IO state machine (ARCHITECTURE "Structure
/// internet-access policy"): desired (each structure's option) against applied (per router, and tbrd's
/// host firewall), shaped like ``EpskcSessionMachine``.
///
/// Its `mutating` handlers take one input and the current instant and return the ``PolicyDirective``s to
/// carry out: apply a plan to a router's agent, read one back, replace or check the firewall, read the
/// LAN's prefixes, publish statuses, wake at an instant. ``PolicyReconciler`` performs them and feeds the
/// results back; tests drive the machine with explicit instants.
///
/// Every decision is here: which routers need applying (the option changed, a router joined a structure,
/// its agent reappeared, tbrd started, a read-back found drift), when a failure is retried (doubling
/// from ``Timing/retryDelay`` up to ``Timing/retryLimit``), when routers of managed structures and the
/// firewall are read back (every ``Timing/checkInterval``), what the firewall must hold (a chain per
/// Thread interface of a `none` or `nat64Only` structure, online or not, with its LAN's prefixes), and
/// each router's status. Applying is idempotent: a router runs at most one apply at a time, and a result
/// for a plan that is no longer wanted only starts the wanted one.
package struct PolicyReconcilerMachine: Sendable {
    package typealias Instant = ContinuousClock.Instant
    package typealias Option = ThreadNetworkSettingsTrait.InternetAccessOption

    package let timing: Timing
    /// Whether ``start(structures:online:now:)`` has run; before it no directive is given.
    private(set) var started = false
    private(set) var structures: [StructureID: StructureSnapshot] = [:]
    /// The structure each router belongs to.
    private(set) var membership: [DeviceID: StructureID] = [:]
    private(set) var routers: [DeviceID: RouterState] = [:]
    private(set) var firewall = FirewallState()
    /// The on-link prefixes of each infrastructure interface, as last read.
    private(set) var links: [String: LinkAddresses] = [:]
    /// What was last published per structure.
    private(set) var published: [StructureID: [RouterPolicyStatus]] = [:]
    /// Interfaces whose prefixes must be read before the firewall is worked out.
    private var linksToRead: Set<String> = []
    /// The routers on other hosts, reached through REST (``routerIsRemote(_:now:)``): no firewall entry,
    /// and their agents cannot be asked for NAT64 or DHCPv6-PD (reported `unsupported` without a call).
    package var remote: Set<DeviceID> = []

    package init(timing: Timing) { self.timing = timing }

    // MARK: inputs

    /// tbrd starts: every structure as stored and the routers online now. Everything managed is applied
    /// (a change persisted before a crash included), and the firewall is replaced whatever was left in it.
    package mutating func start(structures snapshots: [StructureSnapshot], online: Set<DeviceID>, now: Instant) -> [PolicyDirective] {
        started = true
        for id in online { routers[id, default: RouterState()].online = true }
        setStructures(snapshots)
        firewall.applied = nil
        return finish(now)
    }

    /// The structures as stored now (after a change: option, routers, a structure created or deleted).
    package mutating func structuresRead(_ snapshots: [StructureSnapshot], now: Instant) -> [PolicyDirective] {
        setStructures(snapshots)
        return finish(now)
    }

    /// Someone set structure `structure`'s option (the one it had, or a new one): each of its routers
    /// not being applied right now is applied again at once, whatever its last outcome, so that a router
    /// mended since (an agent now built with NAT64, a failure cleared by hand) is not left as it was until
    /// the next read-back or retry. Read the structures first (``structuresRead(_:now:)``).
    package mutating func reapply(_ structure: StructureID, now: Instant) -> [PolicyDirective] {
        for (id, owner) in membership where owner == structure {
            guard var r = routers[id], r.inFlight == nil else { continue }
            r.outcome = nil
            r.failures = 0
            r.retryAt = nil
            r.nextCheck = nil
            routers[id] = r
        }
        return finish(now)
    }

    /// The router's agent appeared on the bus (again): what it runs is unknown, so it is applied.
    package mutating func routerOnline(_ id: DeviceID, now: Instant) -> [PolicyDirective] {
        var r = routers[id, default: RouterState()]
        r.online = true
        r.outcome = nil
        r.failures = 0
        r.retryAt = nil
        routers[id] = r
        return finish(now)
    }

    /// The router's agent left the bus: it is pending until it returns (its firewall rules stay).
    package mutating func routerOffline(_ id: DeviceID, now: Instant) -> [PolicyDirective] {
        var r = routers[id, default: RouterState()]
        r.online = false
        r.retryAt = nil
        r.nextCheck = nil
        routers[id] = r
        return finish(now)
    }

    /// An ``PolicyDirective/applyRouter(_:_:)`` finished.
    package mutating func applyFinished(_ id: DeviceID, plan: RouterPolicyPlan, result: RouterApplyResult, now: Instant) -> [PolicyDirective] {
        var r = routers[id, default: RouterState()]
        r.inFlight = nil
        if let infra = result.infrastructureInterface, infra != r.infrastructureInterface {
            r.infrastructureInterface = infra
            if timing.firewallManaged, links[infra] == nil { linksToRead.insert(infra) }
        }
        guard plan == desiredPlan(id) else {
            // The option changed meanwhile: the result says nothing about the wanted plan.
            routers[id] = r
            return finish(now)
        }
        switch result.outcome {
        case .applied, .unsupported:
            r.outcome = Outcome(plan: plan, result: AgentOutcome(result.outcome))
            r.failures = 0
            r.retryAt = nil
            r.nextCheck = now.advanced(by: timing.checkInterval)
        case .failed(let why):
            r.outcome = Outcome(plan: plan, result: .failed(why))
            r.failures += 1
            r.retryAt = now.advanced(by: timing.backoff(r.failures))
        case .offline:
            r.outcome = nil
            if r.online {
                // Gone and back while the apply ran: try again after the backoff.
                r.failures += 1
                r.retryAt = now.advanced(by: timing.backoff(r.failures))
            }
        }
        routers[id] = r
        return finish(now)
    }

    /// A ``PolicyDirective/checkRouter(_:_:)`` finished: drift is applied away at once.
    package mutating func checkFinished(_ id: DeviceID, plan: RouterPolicyPlan, result: RouterCheckResult, now: Instant) -> [PolicyDirective] {
        guard var r = routers[id] else { return finish(now) }
        r.checking = false
        if plan == desiredPlan(id), r.inFlight == nil {
            switch result {
            case .drifted:
                r.outcome = nil
                r.nextCheck = nil
            case .holds, .failed, .offline:
                r.nextCheck = now.advanced(by: timing.checkInterval)
            }
        }
        routers[id] = r
        return finish(now)
    }

    /// A ``PolicyDirective/replaceFirewall(_:)`` finished (`error` nil: it is in place).
    package mutating func firewallReplaced(_ ruleset: FirewallRuleset, error: String?, now: Instant) -> [PolicyDirective] {
        firewall.inFlight = nil
        if let error {
            firewall.error = error
            firewall.failures += 1
            firewall.retryAt = now.advanced(by: timing.backoff(firewall.failures))
        } else {
            firewall.applied = ruleset
            firewall.error = nil
            firewall.failures = 0
            firewall.retryAt = nil
            firewall.nextCheck = now.advanced(by: timing.checkInterval)
        }
        return finish(now)
    }

    /// A ``PolicyDirective/checkFirewall`` finished: a ruleset someone changed is replaced; either way the
    /// LAN's prefixes are read again (the fallback when address changes are not signalled).
    package mutating func firewallChecked(intact: Bool, error: String?, now: Instant) -> [PolicyDirective] {
        firewall.checking = false
        if error == nil, !intact { firewall.applied = nil }
        firewall.nextCheck = now.advanced(by: timing.checkInterval)
        linksToRead.formUnion(infrastructureInterfaces)
        return finish(now)
    }

    /// The kernel announced a change of the host's ruleset (anyone's, tbrd's own included): tbrd's table is
    /// read back as soon as no replace or read-back runs, so one removed by `nft flush ruleset` is put
    /// back within moments rather than at the next poll.
    package mutating func rulesetChanged(now: Instant) -> [PolicyDirective] {
        if timing.firewallManaged { firewall.changeSeen = true }
        return finish(now)
    }

    /// Addresses changed on some interface: the LAN's prefixes are read again.
    package mutating func addressesChanged(now: Instant) -> [PolicyDirective] {
        if timing.firewallManaged { linksToRead.formUnion(infrastructureInterfaces) }
        return finish(now)
    }

    /// A ``PolicyDirective/readLinkAddresses(_:)`` was carried out.
    package mutating func linkAddressesRead(_ read: [String: LinkAddresses], now: Instant) -> [PolicyDirective] {
        for (name, addresses) in read { links[name] = addresses }
        return finish(now)
    }

    /// The wake-up asked for arrived: retries and read-backs that are due start.
    package mutating func timerFired(now: Instant) -> [PolicyDirective] {
        var directives: [PolicyDirective] = []
        for id in routers.keys.sorted() {
            guard var r = routers[id] else { continue }
            if let due = r.retryAt, due <= now {
                r.retryAt = nil
                r.outcome = nil
            }
            if let due = r.nextCheck, due <= now, r.online, r.inFlight == nil, !r.checking, let plan = desiredPlan(id),
                r.outcome?.plan == plan
            {
                r.nextCheck = nil
                r.checking = true
                directives.append(.checkRouter(id, plan))
            }
            routers[id] = r
        }
        if let due = firewall.retryAt, due <= now { firewall.retryAt = nil }
        if timing.firewallManaged, let due = firewall.nextCheck, due <= now, !firewall.checking, firewall.inFlight == nil {
            firewall.nextCheck = nil
            if firewall.applied?.isEmpty == false {
                firewall.checking = true
                directives.append(.checkFirewall)
            }
        }
        return directives + finish(now)
    }

    // MARK: internals

    private mutating func setStructures(_ snapshots: [StructureSnapshot]) {
        let before = membership.mapValues { structures[$0]?.option }
        structures = Dictionary(snapshots.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        membership = [:]
        for s in snapshots.sorted(by: { $0.id < $1.id }) {
            for id in s.members where membership[id] == nil { membership[id] = s.id }
        }
        for id in membership.keys where routers[id] == nil { routers[id] = RouterState() }
        // A router whose wanted plan changed (or that just joined) is applied again.
        for id in Set(before.keys).union(membership.keys) {
            guard var r = routers[id] else { continue }
            let plan = desiredPlan(id)
            if let outcome = r.outcome, outcome.plan != plan {
                r.outcome = nil
                r.failures = 0
                r.retryAt = nil
                r.nextCheck = nil
            }
            if plan == nil { (r.nextCheck, r.retryAt) = (nil, nil) }
            routers[id] = r
        }
        for id in published.keys where structures[id] == nil { published[id] = nil }
    }

    /// After every input: read the prefixes still unknown first; otherwise start what is due, publish
    /// what changed and say when to wake.
    package mutating func finish(_ now: Instant) -> [PolicyDirective] {
        guard started else { return [] }
        if timing.firewallManaged, !linksToRead.isEmpty {
            let names = linksToRead
            linksToRead = []
            return [.readLinkAddresses(names)]
        }
        var directives: [PolicyDirective] = []
        for id in membership.keys.sorted() {
            guard var r = routers[id], let plan = desiredPlan(id), r.online, r.inFlight == nil, r.retryAt == nil else { continue }
            guard r.outcome?.plan != plan else { continue }
            r.inFlight = plan
            r.checking = false
            routers[id] = r
            directives.append(.applyRouter(id, plan))
        }
        // No replace starts while a read-back runs: its answer would be about the table before the replace.
        if timing.firewallManaged, firewall.inFlight == nil, !firewall.checking, firewall.retryAt == nil {
            let wanted = desiredFirewall
            if firewall.applied != wanted {
                firewall.inFlight = wanted
                directives.append(.replaceFirewall(wanted))
            }
        }
        // A change the kernel announced is read back once nothing else touches the table.
        if timing.firewallManaged, firewall.changeSeen, firewall.inFlight == nil, !firewall.checking {
            firewall.changeSeen = false
            if firewall.applied?.isEmpty == false {
                firewall.checking = true
                directives.append(.checkFirewall)
            }
        }
        for id in structures.keys.sorted() {
            guard let s = structures[id] else { continue }
            let statuses = s.members.filter { membership[$0] == id }.sorted().map { status($0) }
            if published[id] != statuses {
                published[id] = statuses
                directives.append(.publish(id, s.option, statuses))
            }
        }
        directives.append(timer())
        return directives
    }
}
