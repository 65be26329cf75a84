import BorderAgentDiscovery
import BorderRouterService
import HostNetwork
import MeshCoP
import OpenThreadBR
import TBRFoundation

extension Doctor {
    /// `omr-route`: this host has a route to each OMR prefix of the router's mesh (the kernel's routing
    /// table; the default route does not count: it leads to the internet, not to the mesh).
    package static func omrRoute(_ r: RouterFacts, _ host: HostFacts) -> DiagnosticCheck {
        var prefixes = r.topology.value?.omrPrefixes ?? []
        if prefixes.isEmpty, let advertised = r.advertisedOMR { prefixes = [advertised] }
        if prefixes.isEmpty {
            if case .value = r.topology, r.role?.isAttached == true {
                return DiagnosticCheck(
                    "omr-route", .warn, "the mesh's network data has no OMR prefix: devices have no address this host can reach",
                    fix: "check that the border router's infrastructure interface is up (otbr-agent -B IF)")
            }
            return DiagnosticCheck(
                "omr-route", .unsupported, "the router's OMR prefix is unknown (REST does not report the network data, and mDNS showed no omr TXT key)")
        }
        guard case .value(let routes) = host.routes else {
            if case .failed(let why) = host.routes { return DiagnosticCheck("omr-route", .fail, "reading this host's routes failed: \(why)") }
            return DiagnosticCheck("omr-route", .unsupported, "this host's routing table cannot be read")
        }
        var found: [String] = []
        var missing: [String] = []
        for prefix in prefixes {
            if let route = IPv6RouteTable.routes(to: prefix, in: routes).first {
                found.append("\(prefix) (route \(route.destination) on \(route.interface ?? "no interface"))")
            } else {
                missing.append(prefix.description)
            }
        }
        guard missing.isEmpty else {
            return DiagnosticCheck(
                "omr-route", .fail,
                "this host has no route to the OMR prefix \(missing.joined(separator: ", ")) (only the default route, if any): it cannot reach the mesh's devices",
                fix: r.transport == .rest
                    ? "let this host learn the route from the border router's Router Advertisements: sysctl -w net.ipv6.conf.IF.accept_ra_rt_info_max_plen=64 (and accept_ra=1, or 2 when forwarding)"
                    : "check that otbr-agent runs its border routing on this host (the route is on its Thread interface)")
        }
        return DiagnosticCheck("omr-route", .pass, "this host routes " + found.joined(separator: "; "))
    }

    /// `ra-route-info`: for a router on another host, the interfaces this host reaches it through take
    /// Route Information Options of /64 (so they learn the OMR route from its Router Advertisements).
    package static func routeInformation(_ r: RouterFacts, _ host: HostFacts) -> DiagnosticCheck {
        guard r.transport == .rest else {
            return DiagnosticCheck("ra-route-info", .pass, "the router is on this host: its OMR route needs no Router Advertisement")
        }
        guard !host.interfaces.isEmpty else {
            return DiagnosticCheck("ra-route-info", .warn, "no interface with an IPv6 default route or up was found to check")
        }
        var bad: [String] = []
        var read: [String] = []
        for (name, settings) in host.interfaces {
            switch settings {
            case .value(let s):
                let plen = s.acceptRARouteInfoMaxPrefixLength.map(String.init) ?? "absent"
                read.append("\(name): accept_ra=\(s.acceptRA), forwarding=\(s.forwarding), accept_ra_rt_info_max_plen=\(plen)")
                if !s.acceptsOMRRoutes { bad.append(name) }
            case .unsupported(let why), .failed(let why):
                read.append("\(name): \(why)")
                bad.append(name)
            }
        }
        let text = read.joined(separator: "; ")
        guard bad.isEmpty else {
            let example = bad[0]
            return DiagnosticCheck(
                "ra-route-info", .fail, text + ": \(bad.joined(separator: ", ")) will not learn the route to the mesh",
                fix:
                    "sysctl -w net.ipv6.conf.\(example).accept_ra_rt_info_max_plen=64 net.ipv6.conf.\(example).accept_ra=2 (persist it in /etc/sysctl.d/)")
        }
        return DiagnosticCheck("ra-route-info", .pass, text)
    }
}

extension HostFacts {
    /// The checks of this host that do not depend on the router: more than one Thread network in the home,
    /// tbrd's firewall table, avahi-daemon.
    package var sharedChecks: [DiagnosticCheck] { [threadNetworks, firewall, avahi] }

    package var threadNetworks: DiagnosticCheck {
        guard let agents = borderAgents else {
            return DiagnosticCheck("thread-networks", .unsupported, "mDNS is unavailable: the home's networks cannot be counted")
        }
        var networks: [ExtendedPANID: (name: String, agents: Int)] = [:]
        for agent in agents {
            guard let xp = agent.txt.extendedPANID else { continue }
            let name = agent.txt.networkName.map { String(describing: $0) } ?? "?"
            networks[xp, default: (name, 0)].agents += 1
        }
        let list = networks.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value.name) (\($0.key), \($0.value.agents) border routers)" }
        switch networks.count {
        case 0: return DiagnosticCheck("thread-networks", .warn, "mDNS shows no border agent with a network (\(agents.count) seen)")
        case 1: return DiagnosticCheck("thread-networks", .pass, "one Thread network on mDNS: \(list[0])")
        default:
            return DiagnosticCheck(
                "thread-networks", .warn,
                "\(networks.count) Thread networks on mDNS: \(list.joined(separator: ", ")); devices on one cannot reach the other's border routers",
                fix: "join every border router of the home to one network (tbrctl network join with one dataset)")
        }
    }

    package var firewall: DiagnosticCheck {
        guard firewallEnabled else {
            return DiagnosticCheck("firewall", .pass, "firewall = off in tbrd.conf: tbrd keeps no host firewall")
        }
        let needed = firewallNeededBy.isEmpty ? nil : firewallNeededBy.joined(separator: ", ")
        switch (firewallTable, needed) {
        case (.value(true), let needed?): return DiagnosticCheck("firewall", .pass, "nftables has tbrd's table inet tbrd, which \(needed) needs")
        case (.value(true), nil): return DiagnosticCheck("firewall", .pass, "nftables has tbrd's table inet tbrd")
        case (.value(false), nil):
            return DiagnosticCheck("firewall", .pass, "no structure's policy needs tbrd's firewall (none or nat64-only on a router of this host)")
        case (.value(false), let needed?):
            return DiagnosticCheck(
                "firewall", .fail, "nftables has no table inet tbrd although \(needed)'s policy needs it",
                fix: "tbrd puts it back within seconds; if it stays away, see tbrd's log (nft errors)")
        case (.unsupported(let why), _), (.failed(let why), _): return DiagnosticCheck("firewall", .fail, "reading nftables failed: \(why)")
        }
    }

    package var avahi: DiagnosticCheck {
        avahiRunning
            ? DiagnosticCheck("avahi", .pass, "avahi-daemon answers on the system bus")
            : DiagnosticCheck(
                "avahi", .fail, "avahi-daemon does not answer: no mDNS (border agents, ePSKc ends, router names)",
                fix: "systemctl start avahi-daemon")
    }
}
