package import TBRFoundation
package import DeviceModel
package import Firewall

/// What a structure's internet-access option asks of each of its routers (ARCHITECTURE "Structure
/// internet-access policy"):
///
/// | option | NAT64 | DHCPv6-PD | host firewall (`table inet tbrd`) |
/// |---|---|---|---|
/// | `all` | on | on | no drop rules |
/// | `nat64Only` | on | off | drop forwarded IPv6 to global unicast outside the LAN's prefixes |
/// | `dhcpv6PdOnly` | off | on | no drop rules |
/// | `none` | off | off | drop forwarded traffic to anything but link-local, ULA and the LAN's prefixes |
///
/// `unspecified` has no plan: tbrd does not manage the structure.
package struct RouterPolicyPlan: Hashable, Sendable, CustomStringConvertible {
    /// The structure's option.
    package let option: ThreadNetworkSettingsTrait.InternetAccessOption
    /// Whether NAT64 must be on (`SetNat64Enabled`).
    package let nat64: Bool
    /// Whether DHCPv6 prefix delegation must be on (`enable_dhcp6_pd` of `FeatureFlagListData`).
    package let dhcp6PD: Bool

    /// The plan of `option`; nil for `unspecified` (not managed).
    package init?(_ option: ThreadNetworkSettingsTrait.InternetAccessOption) {
        switch option {
        case .internetAccessOptionUnspecified: return nil
        case .internetAccessOptionAll: (nat64, dhcp6PD) = (true, true)
        case .internetAccessOptionNat64Only: (nat64, dhcp6PD) = (true, false)
        case .internetAccessOptionDhcpv6PdOnly: (nat64, dhcp6PD) = (false, true)
        case .internetAccessOptionNone: (nat64, dhcp6PD) = (false, false)
        }
        self.option = option
    }

    /// The firewall restriction of `option`, nil when it needs no drop rules.
    package static func restriction(_ option: ThreadNetworkSettingsTrait.InternetAccessOption) -> FirewallRuleset.Restriction? {
        switch option {
        case .internetAccessOptionNone: .lanOnly
        case .internetAccessOptionNat64Only: .noGlobalIPv6
        case .internetAccessOptionUnspecified, .internetAccessOptionAll, .internetAccessOptionDhcpv6PdOnly: nil
        }
    }

    /// "NAT64 on, DHCPv6-PD off".
    package var description: String { "NAT64 \(nat64 ? "on" : "off"), DHCPv6-PD \(dhcp6PD ? "on" : "off")" }

    /// What applying the plan came to, given what the agent could not do of each part (nil: done).
    ///
    /// `all` means the most internet the router can give: applied when NAT64 or DHCPv6-PD runs (the
    /// other one missing from the build is a note), unsupported only when neither can. Every other option
    /// asks for exactly its parts: any part missing is unsupported.
    package func outcome(nat64Lacking: String?, dhcp6PDLacking: String?) -> RouterApplyResult.Outcome {
        let lacking = [dhcp6PDLacking, nat64Lacking].compactMap { $0 }
        guard !lacking.isEmpty else { return .applied("") }
        if option == .internetAccessOptionAll, lacking.count == 1 {
            let path = nat64Lacking == nil ? "NAT64" : "DHCPv6-PD"
            return .applied("internet through \(path) only: \(lacking[0])")
        }
        return .unsupported(lacking.joined(separator: "; "))
    }
}

/// A structure as the reconciler needs it: its option and its routers.
package struct StructureSnapshot: Hashable, Sendable {
    /// The structure.
    package var id: StructureID
    /// Its internet-access option (the desired state, as stored).
    package var option: ThreadNetworkSettingsTrait.InternetAccessOption
    /// Its border routers.
    package var members: [DeviceID]
}

/// How applying a plan to one router's agent went (``PolicyEnforcer``).
package struct RouterApplyResult: Hashable, Sendable {
    /// The outcome.
    package enum Outcome: Hashable, Sendable {
        /// The agent runs the plan (for `all`, as much of it as it can: the note says what it lacks;
        /// empty otherwise).
        case applied(String)
        /// The agent runs what it can of the plan; the reason says what it lacks.
        case unsupported(String)
        /// A call failed; the reason says which and why.
        case failed(String)
        /// The agent is not on the bus.
        case offline
    }

    /// The outcome.
    package var outcome: Outcome
    /// The agent's infrastructure (LAN) interface (`InfraLinkInfo`), when it said.
    package var infrastructureInterface: String?
}

/// How reading back one router's NAT64 and DHCPv6-PD went (the drift check).
package enum RouterCheckResult: Hashable, Sendable {
    /// It still runs the plan.
    case holds
    /// Someone changed it: what differs.
    case drifted(String)
    /// It could not be read (the check is tried again later).
    case failed(String)
    /// The agent is not on the bus.
    case offline
}
