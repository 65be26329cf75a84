package import BorderRouterService
import HostNetwork
import MeshCoP
import OpenThreadBR
import TBRFoundation

/// `Manager1.Diagnose`: what is wrong with a border router and this host, from facts already read
/// (``RouterFacts``, ``HostFacts``). Each check says what it read; none does I/O, so each is tested on
/// facts as well as end to end.
package enum Doctor {
    /// The CCA failure rate above which the channel is called busy (0xFFFF = 100 %): 10 %.
    package static let ccaWarnRate: UInt16 = 0x1999
    /// Network keys nobody should run a real network with: the specification's example key and all zeros.
    package static let wellKnownKeys: [[UInt8]] = [
        [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF],
        Array(repeating: 0, count: 16),
    ]

    /// Every check of router `r` on this host, in a fixed order.
    package static func checks(_ r: RouterFacts, host: HostFacts) -> [DiagnosticCheck] {
        var checks = [agentReachable(r)]
        guard r.online else { return checks + host.sharedChecks }
        checks.append(attached(r))
        checks.append(rcpVersion(r))
        checks.append(networkKey(r))
        checks.append(omrRoute(r, host))
        checks.append(routeInformation(r, host))
        checks.append(multiAil(r))
        checks.append(cca(r))
        checks.append(nat64(r))
        checks.append(policy(r))
        if let structureCheck = structureNetwork(r) { checks.append(structureCheck) }
        return checks + host.sharedChecks
    }

    package static func agentReachable(_ r: RouterFacts) -> DiagnosticCheck {
        let agent = r.transport == .rest ? "otbr-agent at \(r.address)" : "otbr-agent (\(r.address))"
        guard r.online else {
            let fix =
                r.transport == .rest
                ? "check that otbr-agent runs on that host with its REST API listening there (--rest-listen-address)"
                : "start otbr-agent (systemctl start otbr-agent) and check its D-Bus policy admits tbrd"
            return DiagnosticCheck("agent-reachable", .fail, "\(agent) does not answer", fix: fix)
        }
        return DiagnosticCheck("agent-reachable", .pass, "\(agent) answers")
    }

    package static func attached(_ r: RouterFacts) -> DiagnosticCheck {
        guard let role = r.role else { return DiagnosticCheck("thread-attached", .fail, "the agent did not say its role") }
        guard role.isAttached else {
            return DiagnosticCheck(
                "thread-attached", .fail, "the Thread role is \(role): not attached to a network",
                fix: "join a network: tbrctl network join -d \(r.id) DATASET (or check the radio)")
        }
        return DiagnosticCheck("thread-attached", .pass, "the Thread role is \(role)")
    }

    package static func rcpVersion(_ r: RouterFacts) -> DiagnosticCheck {
        switch r.health.rcpVersion {
        case .value(let v) where !v.isEmpty: return DiagnosticCheck("rcp-version", .pass, "OtRcpVersion reads \"\(v)\"")
        case .value: return DiagnosticCheck("rcp-version", .fail, "OtRcpVersion is empty: no radio co-processor answered", fix: radioFix)
        case .unsupported(let why): return DiagnosticCheck("rcp-version", .unsupported, why)
        case .failed(let why): return DiagnosticCheck("rcp-version", .fail, "reading OtRcpVersion failed: \(why)", fix: radioFix)
        }
    }

    private static let radioFix = "check the radio (RCP) is plugged in and otbr-agent's radio URL (-r spinel+hdlc+uart://…) names it"

    package static func networkKey(_ r: RouterFacts) -> DiagnosticCheck {
        switch r.dataset {
        case .value(nil):
            return DiagnosticCheck("network-key", .warn, "the router has no active dataset", fix: "tbrctl network join -d \(r.id) DATASET")
        case .value(let dataset?):
            guard let key = dataset.networkKey?.bytes else {
                return DiagnosticCheck("network-key", .warn, "the active dataset has no network key")
            }
            if wellKnownKeys.contains(key) {
                // Named, never spelled: even a well-known key is a network key, and this message reaches
                // logs, the HTTPS API's events and the MQTT broker.
                let which = key.allSatisfy { $0 == 0 } ? "all zeros" : "the Thread specification's example key (00 11 22 … ff)"
                return DiagnosticCheck(
                    "network-key", .fail, "the network key is \(which): anyone can join and read this network",
                    fix: "make a new network: tbrctl dataset new, then tbrctl network join -d \(r.id) with it")
            }
            return DiagnosticCheck("network-key", .pass, "the network key is not a well-known one")
        case .unsupported(let why): return DiagnosticCheck("network-key", .unsupported, why)
        case .failed(let why): return DiagnosticCheck("network-key", .fail, "reading the active dataset failed: \(why)")
        }
    }

    package static func multiAil(_ r: RouterFacts) -> DiagnosticCheck {
        switch r.health.multiAilDetected {
        case .value(false): return DiagnosticCheck("multi-ail", .pass, "MultiAilDetected is false: one infrastructure link")
        case .value(true):
            return DiagnosticCheck(
                "multi-ail", .fail,
                "MultiAilDetected is true: the mesh's border routers are on different LANs, so devices reach only part of the home",
                fix: "connect every border router of this Thread network to the same LAN (same Wi-Fi/Ethernet segment, no guest network)")
        case .unsupported(let why): return DiagnosticCheck("multi-ail", .unsupported, why)
        case .failed(let why): return DiagnosticCheck("multi-ail", .fail, "reading MultiAilDetected failed: \(why)")
        }
    }

    package static func cca(_ r: RouterFacts) -> DiagnosticCheck {
        switch r.health.ccaFailureRate {
        case .value(let rate):
            let percent = Double(rate) * 100 / 65535
            let text = "CcaFailureRate is \(rate) (\(percentText(percent)) of clear-channel assessments failed)"
            guard rate <= ccaWarnRate else {
                return DiagnosticCheck(
                    "cca-failure-rate", .warn, text + ": the channel is busy",
                    fix: "move the network to a quieter channel (away from Wi-Fi): tbrctl network join with a dataset on another channel")
            }
            return DiagnosticCheck("cca-failure-rate", .pass, text)
        case .unsupported(let why): return DiagnosticCheck("cca-failure-rate", .unsupported, why)
        case .failed(let why): return DiagnosticCheck("cca-failure-rate", .fail, "reading CcaFailureRate failed: \(why)")
        }
    }

    package static func percentText(_ percent: Double) -> String {
        let tenths = Int((percent * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) %"
    }

    package static func nat64(_ r: RouterFacts) -> DiagnosticCheck {
        let wanted: Bool?
        switch r.policy?.option {
        case .internetAccessOptionAll?, .internetAccessOptionNat64Only?: wanted = true
        case .internetAccessOptionNone?, .internetAccessOptionDhcpv6PdOnly?: wanted = false
        case .internetAccessOptionUnspecified?, nil: wanted = nil
        }
        switch r.health.nat64 {
        case .value(let state):
            let text = "Nat64State reads prefix manager \(state.prefixManager), translator \(state.translator)"
            guard let wanted, let p = r.policy else {
                return DiagnosticCheck("nat64", .pass, text + "; no internet-access policy asks for it either way")
            }
            if wanted == state.isEnabled {
                return DiagnosticCheck("nat64", .pass, text + ", as \(p.structure)'s policy \(word(p.option)) wants")
            }
            return DiagnosticCheck(
                "nat64", .fail, text + ", but \(p.structure)'s policy \(word(p.option)) wants it \(wanted ? "on" : "off")",
                fix: "tbrctl structure policy \(p.structure) shows what tbrd could not apply; check tbrd's log")
        case .unsupported(let why): return DiagnosticCheck("nat64", .unsupported, why)
        case .failed(let why): return DiagnosticCheck("nat64", .fail, "reading Nat64State failed: \(why)")
        }
    }

    /// The option as tbrctl spells it (`nat64-only`).
    package static func word(_ option: ThreadNetworkSettingsTrait.InternetAccessOption) -> String {
        switch option {
        case .internetAccessOptionUnspecified: "unspecified"
        case .internetAccessOptionNone: "none"
        case .internetAccessOptionAll: "all"
        case .internetAccessOptionNat64Only: "nat64-only"
        case .internetAccessOptionDhcpv6PdOnly: "dhcpv6-pd-only"
        }
    }

    package static func policy(_ r: RouterFacts) -> DiagnosticCheck {
        guard let p = r.policy else {
            return DiagnosticCheck("internet-access-policy", .pass, "\(r.id) is in no structure: no internet-access policy to hold")
        }
        let head = "\(p.structure)'s policy \(word(p.option))"
        guard let status = p.status else { return DiagnosticCheck("internet-access-policy", .warn, head + ": not applied yet") }
        let detail = status.detail.isEmpty ? "" : " (\(status.detail))"
        switch status.state {
        case .applied: return DiagnosticCheck("internet-access-policy", .pass, head + " is applied" + detail)
        case .pending: return DiagnosticCheck("internet-access-policy", .warn, head + " is pending" + detail)
        case .unsupported:
            return DiagnosticCheck(
                "internet-access-policy", .warn, head + ": the router cannot provide it" + detail,
                fix: "choose an option the router supports (tbrctl info -d \(r.id) shows its internet access)")
        case .failed:
            return DiagnosticCheck(
                "internet-access-policy", .fail, head + " failed" + detail, fix: "see tbrd's log; tbrd retries on its own")
        }
    }

    /// Whether a router of a structure is on the structure's preferred network (issue 48): `fail` when it
    /// has none (reset, reflashed, wiped) or is on another, each with the one command that mends it.
    package static func structureNetwork(_ r: RouterFacts) -> DiagnosticCheck? {
        guard let s = r.structureNetwork else { return nil }
        let structure = RouterRecovery.shellWord(s.structure)
        guard let preferred = s.preferred else {
            return DiagnosticCheck(
                "structure-network", .warn, "\(s.structure) has no preferred network: tbrd cannot bring its routers back after a reset",
                fix: "tbrctl network preferred \(structure) EXT_PAN_ID")
        }
        let empty: Bool
        switch r.dataset {
        case .value(let dataset?):
            guard let xpan = dataset.extendedPANID?.description, xpan != preferred else {
                return DiagnosticCheck("structure-network", .pass, "\(r.id) is on \(s.structure)'s preferred network \(preferred)")
            }
            return DiagnosticCheck(
                "structure-network", .fail, "\(r.id) is on network \(xpan), not on \(s.structure)'s preferred network \(preferred) (diverged)",
                fix: "tbrctl structure migrate \(structure)")
        case .value(nil): empty = true
        case .failed: empty = r.role == .disabled || r.role == .detached
        case .unsupported: empty = false
        }
        guard empty else { return DiagnosticCheck("structure-network", .warn, "\(r.id)'s active dataset could not be read") }
        guard s.credentialsHeld else {
            return DiagnosticCheck(
                "structure-network", .fail, "\(r.id) has no network, and tbrd does not hold the credentials of \(preferred)",
                fix: "tbrctl network fetch --structure \(structure) (from a router still on it), then tbrctl structure recover \(structure) \(r.id)")
        }
        return DiagnosticCheck(
            "structure-network", .fail, "\(r.id) has no network (reset, reflashed, a new radio, or wiped); \(s.structure)'s recovery is \(s.recovery)",
            fix: "tbrctl structure recover \(structure) \(r.id)")
    }
}
