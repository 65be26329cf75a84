package import TBRFoundation
package import DeviceModel
package import Firewall

/// What ``PolicyReconcilerMachine`` asks its driver (``PolicyReconciler``) to do. The machine decides;
/// the driver carries the directives out in order and feeds each result back as an input.
package enum PolicyDirective: Hashable, Sendable {
    /// Apply `plan` to router's agent (NAT64, DHCPv6-PD; read its infrastructure interface), then feed
    /// ``PolicyReconcilerMachine/applyFinished(_:plan:result:now:)``. Several run at once, one per router.
    case applyRouter(DeviceID, RouterPolicyPlan)
    /// Read back whether the router's agent still runs `plan`, then feed
    /// ``PolicyReconcilerMachine/checkFinished(_:plan:result:now:)``.
    case checkRouter(DeviceID, RouterPolicyPlan)
    /// Replace tbrd's host firewall ruleset with this one (remove it when empty), then feed
    /// ``PolicyReconcilerMachine/firewallReplaced(_:error:now:)``. At most one runs at a time.
    case replaceFirewall(FirewallRuleset)
    /// See whether the host firewall still reads back as last replaced, then feed
    /// ``PolicyReconcilerMachine/firewallChecked(intact:error:now:)``.
    case checkFirewall
    /// Read the on-link prefixes of these interfaces now and feed
    /// ``PolicyReconcilerMachine/linkAddressesRead(_:now:)`` before anything else (its directives come next).
    case readLinkAddresses(Set<String>)
    /// Record the status of every router of the structure (while `option` is the desired one), then stream it.
    case publish(StructureID, ThreadNetworkSettingsTrait.InternetAccessOption, [RouterPolicyStatus])
    /// Call ``PolicyReconcilerMachine/timerFired(now:)`` at `instant`; replaces any earlier wake-up.
    case wake(at: ContinuousClock.Instant)
    /// Nothing is due: no timer until the next input.
    case cancelWake
}
