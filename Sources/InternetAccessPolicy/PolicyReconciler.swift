package import RouterFleet
package import DeviceModel
package import Firewall
package import TBRFoundation

/// Drives ``PolicyReconcilerMachine``: feeds it what happens (structures changing in the store, routers
/// coming and going, results, the clock) and carries out its directives — applies and read-backs on the
/// agents as child tasks (one per router at a time, many routers at once), the host firewall through a
/// ``Firewall/HostFirewall`` (none with ``NoHostFirewall``: the machine is told the firewall is off),
/// statuses into the structure store (recorded before they are streamed).
///
/// One loop takes one input at a time from a ``PolicyInbox``; when the inbox runs dry the statuses
/// gathered meanwhile are recorded, one store write per structure. Built with its service, it takes
/// inputs once ``open()`` has been called and until ``run(registry:online:)`` ends.
package actor PolicyReconciler {
    package let store: any StructureStore
    package let firewall: any HostFirewall
    /// Whether the firewall is one to manage (not ``NoHostFirewall``).
    package let firewallManaged: Bool
    package let enforcer: PolicyEnforcer
    package let clock: any TBRClock
    package let logger: Logger
    /// Router `id`'s channel, nil for a router the service does not know.
    package let channel: @Sendable (DeviceID) -> (any RouterChannel)?
    package var machine: PolicyReconcilerMachine
    /// When the machine next wants ``PolicyInput/timer``.
    package let alarm: Alarm
    package let inbox = PolicyInbox()
    /// Statuses to record when the inbox runs dry, by structure.
    package var unpublished: [StructureID: (ThreadNetworkSettingsTrait.InternetAccessOption, [RouterPolicyStatus])] = [:]
    /// How the firewall read back after the last replace.
    package var firewallSnapshot: FirewallSnapshot?

    package init(
        store: any StructureStore, firewall: any HostFirewall, timing: PolicyTiming, clock: any TBRClock, logger: Logger,
        channel: @escaping @Sendable (DeviceID) -> (any RouterChannel)?
    ) {
        self.channel = channel
        self.store = store
        self.firewall = firewall
        self.firewallManaged = !(firewall is NoHostFirewall)
        self.enforcer = PolicyEnforcer(
            controls: { id in channel(id)?.policyControls }, nat64Timeout: timing.nat64Timeout,
            nat64PollInterval: .milliseconds(100), clock: clock)
        self.clock = clock
        self.alarm = Alarm(clock: clock)
        self.logger = logger
        self.machine = PolicyReconcilerMachine(
            timing: .init(
                checkInterval: timing.checkInterval, retryDelay: timing.retryDelay, retryLimit: timing.retryLimit,
                firewallManaged: firewallManaged))
    }

    /// Why the policy is `unsupported` on a router reached through REST.
    package static let remoteRouterDetail =
        "this border router is reached through otbr-agent's REST API, which cannot switch NAT64 or DHCPv6-PD, "
        + "and its host's firewall is not tbrd's: the internet-access policy is not enforced on it"

    /// Runs until the task is cancelled: starts from the structures in the store and the routers in
    /// `online` (`remote` of them on other hosts), then follows `registry` (subscribed before `online` was taken), the store's changes and
    /// the addresses of the host.
    package func run(registry: EventStream<RouterRegistryEvent>, online: Set<DeviceID>, remote: Set<DeviceID>) async {
        let changes = store.changes(bufferLimit: 4096)
        let addressChanges = firewall.addressChanges()
        let rulesetChanges = firewall.rulesetChanges()
        inbox.open()
        logger.info(
            "internet-access policy reconciler running",
            [("firewall", firewallManaged ? "on" : "off"), ("address-changes", addressChanges == nil ? "polled" : "followed"),
             ("ruleset-changes", rulesetChanges == nil ? "polled" : "followed")])
        defer { inbox.close() }
        await withDiscardingTaskGroup { group in
            let inbox = self.inbox
            group.addTask {
                for await event in registry { inbox.submit(.registry(event)) }
            }
            group.addTask {
                for await change in changes {
                    if case .policyStatusChanged = change { continue }
                    inbox.submit(.structuresChanged)
                }
            }
            if let addressChanges {
                group.addTask {
                    for await _ in addressChanges { inbox.submit(.addressesChanged) }
                }
            }
            if let rulesetChanges {
                group.addTask {
                    for await _ in rulesetChanges { inbox.submit(.rulesetChanged) }
                }
            }
            group.addTask { await self.alarm.run { inbox.submit(.timer) } }

            for id in remote.sorted() { _ = machine.routerIsRemote(id, now: clock.now()) }
            if let snapshots = await readStructures() {
                await perform(machine.start(structures: snapshots, online: online, now: clock.now()), &group)
            } else {
                await perform(machine.start(structures: [], online: online, now: clock.now()), &group)
                inbox.submit(.structuresChanged)
            }
            while !Task.isCancelled {
                guard let input = inbox.next() else {
                    await recordStatuses()
                    await inbox.wait()
                    continue
                }
                await handle(input, &group)
            }
            group.cancelAll()
        }
    }

    // MARK: inputs

    private func handle(_ input: PolicyInput, _ group: inout DiscardingTaskGroup) async {
        let now = clock.now()
        switch input {
        case .structuresChanged:
            guard let snapshots = await readStructures() else { return }
            await perform(machine.structuresRead(snapshots, now: now), &group)
        case .reapply(let structure):
            await perform(machine.reapply(structure, now: now), &group)
        case .registry(.added(let id)):
            if channel(id)?.transport == .rest { await perform(machine.routerIsRemote(id, now: now), &group) }
        case .registry(.removed(let id)):
            await perform(machine.routerOffline(id, now: now), &group)
        case .registry(.online(let id)):
            await perform(machine.routerOnline(id, now: now), &group)
        case .registry(.offline(let id)):
            await perform(machine.routerOffline(id, now: now), &group)
        case .applied(let id, let plan, let result):
            log(id, plan, result)
            await perform(machine.applyFinished(id, plan: plan, result: result, now: now), &group)
        case .checked(let id, let plan, let result):
            switch result {
            case .drifted(let what):
                logger.notice(
                    "internet-access policy drifted; applying it again",
                    [("router", id.rawValue), ("option", plan.option.rawValue), ("found", what)])
            case .failed(let why):
                logger.info("could not read back the internet-access policy", [("router", id.rawValue), ("error", why)])
            case .holds, .offline:
                break
            }
            await perform(machine.checkFinished(id, plan: plan, result: result, now: now), &group)
        case .firewallReplaced(let ruleset, .success(let snapshot)):
            firewallSnapshot = snapshot
            if !snapshot.wasRead {
                logger.notice(
                    "host firewall: nft is not installed; no rules are needed, and a table inet tbrd an earlier run left (if any) stays until nft removes it")
            } else {
                logger.info(
                    ruleset.isEmpty ? "host firewall: table inet tbrd removed" : "host firewall: table inet tbrd replaced",
                    [("thread-interfaces", ruleset.entries.map(\.threadInterface).joined(separator: ","))])
            }
            await perform(machine.firewallReplaced(ruleset, error: nil, now: now), &group)
        case .firewallReplaced(let ruleset, .failure(let error)):
            logger.warning("host firewall could not be replaced", [("error", error.description)])
            await perform(machine.firewallReplaced(ruleset, error: error.description, now: now), &group)
        case .firewallChecked(.success(let intact)):
            if !intact { logger.notice("host firewall: table inet tbrd was changed by someone else; replacing it") }
            await perform(machine.firewallChecked(intact: intact, error: nil, now: now), &group)
        case .firewallChecked(.failure(let error)):
            logger.info("host firewall could not be read back", [("error", error.description)])
            await perform(machine.firewallChecked(intact: true, error: error.description, now: now), &group)
        case .addressesChanged:
            await perform(machine.addressesChanged(now: now), &group)
        case .rulesetChanged:
            await perform(machine.rulesetChanged(now: now), &group)
        case .timer:
            await perform(machine.timerFired(now: now), &group)
        case .barrier(let id):
            await recordStatuses()
            inbox.barrierPassed(id)
        }
    }

    /// Takes inputs from now on: called as the service starts, so that ``settled()`` waits for the loop
    /// from then (before, it returns at once).
    package nonisolated func open() { inbox.open() }

    /// Returns once every structure change stored before the call has been taken in and the statuses
    /// that follow from it are recorded (routers still being applied are `pending`); at once when the
    /// reconciler is not running, or when the task is cancelled.
    package nonisolated func settled() async {
        inbox.submit(.structuresChanged)
        await inbox.barrier()
    }

    /// As ``settled()``, after structure `structure`'s option was set: its routers are also applied
    /// again (``PolicyReconcilerMachine/reapply(_:now:)``), so the statuses recorded when this returns
    /// are `pending` for them until the new applies finish.
    package nonisolated func reapplied(_ structure: StructureID) async {
        inbox.submit(.structuresChanged)
        inbox.submit(.reapply(structure))
        await inbox.barrier()
    }

    /// Every structure with its option and routers, or nil (logged) when the store cannot be read.
    private func readStructures() async -> [StructureSnapshot]? {
        do {
            var snapshots: [StructureSnapshot] = []
            for info in try await store.structures() {
                let settings: ThreadNetworkSettingsTrait.Attributes
                do { settings = try await store.settings(of: info.id) } catch where error.code == .notFound { continue }
                snapshots.append(StructureSnapshot(id: info.id, option: settings.internetAccessOption, members: info.deviceIDs))
            }
            return snapshots
        } catch {
            logger.error("could not read the structures for the internet-access policy", [("error", error.message)])
            return nil
        }
    }

    // MARK: directives

    /// Carries out `directives` in order; agent and firewall work runs as child tasks whose results come
    /// back through the inbox.
    private func perform(_ directives: [PolicyDirective], _ group: inout DiscardingTaskGroup) async {
        for directive in directives {
            switch directive {
            case .applyRouter(let id, let plan) where machine.remote.contains(id):
                inbox.submit(.applied(id, plan, RouterApplyResult(outcome: .unsupported(Self.remoteRouterDetail))))
            case .checkRouter(let id, let plan) where machine.remote.contains(id):
                inbox.submit(.checked(id, plan, .holds))
            case .applyRouter(let id, let plan):
                let enforcer = self.enforcer, inbox = self.inbox
                group.addTask { inbox.submit(.applied(id, plan, await enforcer.apply(id, plan))) }
            case .checkRouter(let id, let plan):
                let enforcer = self.enforcer, inbox = self.inbox
                group.addTask { inbox.submit(.checked(id, plan, await enforcer.check(id, plan))) }
            case .replaceFirewall(let ruleset):
                let firewall = self.firewall, inbox = self.inbox
                group.addTask {
                    do throws(FirewallError) {
                        inbox.submit(.firewallReplaced(ruleset, .success(try await firewall.replace(with: ruleset))))
                    } catch {
                        inbox.submit(.firewallReplaced(ruleset, .failure(error)))
                    }
                }
            case .checkFirewall:
                guard let snapshot = firewallSnapshot else {
                    inbox.submit(.firewallChecked(.success(false)))
                    continue
                }
                let firewall = self.firewall, inbox = self.inbox
                group.addTask {
                    do throws(FirewallError) {
                        inbox.submit(.firewallChecked(.success(try await firewall.isIntact(snapshot))))
                    } catch {
                        inbox.submit(.firewallChecked(.failure(error)))
                    }
                }
            case .readLinkAddresses(let names):
                var read: [String: LinkAddresses] = [:]
                do { read = try firewall.linkAddresses(names) } catch {
                    logger.warning("could not read the LAN's addresses", [("error", error.description)])
                }
                await perform(machine.linkAddressesRead(read, now: clock.now()), &group)
            case .publish(let structure, let option, let statuses):
                unpublished[structure] = (option, statuses)
            case .wake(let instant):
                alarm.set(instant)
            case .cancelWake:
                alarm.cancel()
            }
        }
    }

    /// Records the statuses gathered since the last time, one store write per structure; each is
    /// streamed (and signalled by tbrd) once stored.
    private func recordStatuses() async {
        let pending = unpublished
        unpublished = [:]
        for structure in pending.keys.sorted() {
            guard let (option, statuses) = pending[structure] else { continue }
            do {
                try await store.recordPolicyStatus(statuses, option: option, of: structure)
            } catch where error.code == .notFound {
                logger.debug("a structure went away before its policy status was recorded", [("structure", structure.rawValue)])
            } catch {
                logger.error(
                    "could not record the internet-access policy status", [("structure", structure.rawValue), ("error", error.message)])
            }
        }
    }
}
