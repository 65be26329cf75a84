package import TBRFoundation
package import DeviceModel
package import Firewall

/// What the structures want of each router and of the firewall, and what each router's status is.
extension PolicyReconcilerMachine {
    /// The plan router `id` must run: its structure's; nil when it belongs to none or the option is
    /// `unspecified`.
    package func desiredPlan(_ id: DeviceID) -> RouterPolicyPlan? {
        guard let s = membership[id], let structure = structures[s] else { return nil }
        return RouterPolicyPlan(structure.option)
    }

    /// The firewall tbrd must have: one entry per router on this host of a `none` or `nat64Only` structure
    /// (online or not: the rules hold whatever the router does; a router on another host routes its
    /// mesh through its own host, whose firewall tbrd does not manage), with the prefixes of its infrastructure interface
    /// (none known yet: only link-local and ULA are let through).
    package var desiredFirewall: FirewallRuleset {
        FirewallRuleset(membership.keys.compactMap { desiredEntry($0) })
    }

    /// Router `id`'s entry of ``desiredFirewall``, nil when it needs none.
    package func desiredEntry(_ id: DeviceID) -> FirewallRuleset.Entry? {
        guard !remote.contains(id), let s = membership[id], let option = structures[s]?.option,
            let restriction = RouterPolicyPlan.restriction(option)
        else { return nil }
        let lan = routers[id]?.infrastructureInterface.flatMap { links[$0] } ?? .none
        return FirewallRuleset.Entry(threadInterface: id.rawValue, restriction: restriction, lan: lan)
    }

    /// The infrastructure interfaces of the routers whose firewall entries need their prefixes.
    package var infrastructureInterfaces: Set<String> {
        Set(membership.compactMap { id, s -> String? in
            guard !remote.contains(id), let option = structures[s]?.option, RouterPolicyPlan.restriction(option) != nil else { return nil }
            return routers[id]?.infrastructureInterface
        })
    }

    /// The status of router `id` in its structure: the worst of its agent's part and its firewall part
    /// (failed, then pending, then unsupported, then applied), with their details.
    package func status(_ id: DeviceID) -> RouterPolicyStatus {
        let r = routers[id] ?? RouterState()
        var parts: [(RouterPolicyStatus.State, String)] = []
        if let plan = desiredPlan(id) {
            if !r.online {
                parts.append((.pending, "the border router is offline; applied when its otbr-agent returns"))
            } else if r.inFlight != nil {
                parts.append((.pending, "applying"))
            } else if let outcome = r.outcome, outcome.plan == plan {
                switch outcome.result {
                case .applied(let note): parts.append((.applied, note))
                case .unsupported(let why): parts.append((.unsupported, why))
                case .failed(let why): parts.append((.failed, why))
                }
            } else {
                parts.append((.pending, "applying"))
            }
        } else {
            parts.append((.applied, "not managed"))
        }
        parts.append(firewallPart(id))
        let worst = [RouterPolicyStatus.State.failed, .pending, .unsupported].first { s in parts.contains { $0.0 == s } } ?? .applied
        let detail = parts.map(\.1).filter { !$0.isEmpty }.joined(separator: "; ")
        return RouterPolicyStatus(deviceID: id, state: worst, detail: detail)
    }

    /// The host firewall's part of router `id`'s status: applied once its entry (or its absence) is in
    /// place and no replace under way changes it; failed while the last replace failed; pending otherwise.
    fileprivate func firewallPart(_ id: DeviceID) -> (RouterPolicyStatus.State, String) {
        let wanted = desiredEntry(id)
        guard timing.firewallManaged else {
            return (.applied, wanted == nil ? "" : "no host firewall rules: tbrd's firewall is off")
        }
        func entry(_ r: FirewallRuleset) -> FirewallRuleset.Entry? { r.entries.first { $0.threadInterface == id.rawValue } }
        if let applied = firewall.applied, entry(applied) == wanted, firewall.inFlight.map({ entry($0) == wanted }) ?? true {
            return (.applied, "")
        }
        if let error = firewall.error, firewall.inFlight == nil { return (.failed, "host firewall: \(error)") }
        return (.pending, "updating the host firewall")
    }
}

extension PolicyReconcilerMachine {
    /// Router `id` is on another host, reached through REST.
    package mutating func routerIsRemote(_ id: DeviceID, now: Instant) -> [PolicyDirective] {
        guard remote.insert(id).inserted else { return [] }
        return finish(now)
    }
}
