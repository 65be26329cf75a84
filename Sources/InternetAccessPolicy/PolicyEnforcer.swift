package import RouterFleet
import DeviceModel
import OpenThreadBR
package import TBRFoundation

/// The I/O of the policy on one router's otbr-agent: applies a ``RouterPolicyPlan`` and reads it back.
/// It decides nothing about when: ``PolicyReconcilerMachine`` does.
///
/// Applying, in this order:
/// 1. `Capabilities` says what the agent is built with; `InfraLinkInfo` names its infrastructure
///    interface (for the host firewall).
/// 2. DHCPv6-PD through `FeatureFlagListData`, read-modify-write (``BorderRouterAgent/updateFeatureFlags(_:)``):
///    `enable_dhcp6_pd` changes, and `enable_nat64` is set to the plan's NAT64 (the agent applies every
///    flag of a write, so the write must not switch NAT64 against the plan); every other field present,
///    unknown ones included, is written back byte-exact (absent `enable_ephemeralkey` and
///    `enable_dns_upstream_query` are first filled from the agent's state, as absent means off). Nothing
///    is written when the flag already says the plan.
/// 3. NAT64 with `SetNat64Enabled` when `Nat64State` disagrees, then `Nat64State` is polled until it
///    agrees (enabled: anything but `(disabled, disabled)`), for at most ``nat64Timeout``.
///
/// What the agent cannot do (its `Capabilities` lacks the feature, or it answers `NotImplemented`) is
/// reported with the reason (unsupported, or for `all` a note when the other path runs:
/// ``RouterPolicyPlan/outcome(nat64Lacking:dhcp6PDLacking:)``); the rest is still applied.
package struct PolicyEnforcer: Sendable {
    /// Router `id`'s switches, through its channel; nil for an unknown router or one on REST.
    package let controls: @Sendable (DeviceID) -> (any PolicyControls)?
    /// How long NAT64 may take to show the new state in `Nat64State`.
    package let nat64Timeout: Duration
    /// How often `Nat64State` is read while waiting.
    package let nat64PollInterval: Duration
    package let clock: any TBRClock

    /// Applies `plan` to router `id`'s agent.
    package func apply(_ id: DeviceID, _ plan: RouterPolicyPlan) async -> RouterApplyResult {
        guard let agent = controls(id) else {
            return RouterApplyResult(outcome: .failed("\(id) is not a border router whose agent tbrd can switch"))
        }
        var infrastructure: String?
        do {
            let capabilities = try await readCapabilities(agent)
            infrastructure = try? await agent.infrastructureLinkName()
            let pd = try await applyPrefixDelegation(plan, agent, capabilities)
            let nat64 = try await applyNat64(plan, agent, capabilities)
            return RouterApplyResult(
                outcome: plan.outcome(nat64Lacking: nat64, dhcp6PDLacking: pd), infrastructureInterface: infrastructure?.nilIfEmpty)
        } catch let failure as ApplyFailure {
            return RouterApplyResult(outcome: .failed(failure.reason), infrastructureInterface: infrastructure?.nilIfEmpty)
        } catch let error as AgentError {
            if error.cause == .notRunning { return RouterApplyResult(outcome: .offline) }
            return RouterApplyResult(outcome: .failed(error.description), infrastructureInterface: infrastructure?.nilIfEmpty)
        } catch {
            return RouterApplyResult(outcome: .failed("\(error)"), infrastructureInterface: infrastructure?.nilIfEmpty)
        }
    }

    /// Reads back whether router `id`'s agent still runs `plan` (the parts it can run).
    package func check(_ id: DeviceID, _ plan: RouterPolicyPlan) async -> RouterCheckResult {
        guard let agent = controls(id) else { return .failed("\(id) is not a border router whose agent tbrd can switch") }
        do throws(AgentError) {
            let capabilities = try await readCapabilities(agent)
            var drift: [String] = []
            if capabilities.dhcp6PD != false, let flags = try await featureFlags(agent),
                (flags.enableDhcp6PD ?? false) != plan.dhcp6PD
            {
                drift.append("DHCPv6-PD is \(plan.dhcp6PD ? "off" : "on")")
            }
            if capabilities.nat64 != false, let state = try await nat64State(agent), state.isEnabled != plan.nat64 {
                drift.append("NAT64 is \(state)")
            }
            return drift.isEmpty ? .holds : .drifted(drift.joined(separator: "; "))
        } catch {
            return error.cause == .notRunning ? .offline : .failed(error.description)
        }
    }

    // MARK: parts

    /// Why one part of the plan failed (the whole apply is retried).
    private struct ApplyFailure: Error {
        let reason: String
    }

    /// `Capabilities`; an agent from before that property (`NotFound`, or `UnknownMethod`) gets
    /// `nil`s: the calls themselves then say what is built.
    private func readCapabilities(_ agent: any PolicyControls) async throws(AgentError) -> Capabilities {
        do { return try await agent.capabilities() } catch where error.openThreadError == .notFound || error.cause == .notSupported {
            return Capabilities()
        }
    }

    /// `FeatureFlagListData`, or nil for an agent built without feature flags.
    private func featureFlags(_ agent: any PolicyControls) async throws(AgentError) -> FeatureFlagList? {
        do { return try await agent.featureFlags() } catch where Self.notBuilt(error) { return nil }
    }

    /// `Nat64State`, or nil for an agent built without NAT64.
    private func nat64State(_ agent: any PolicyControls) async throws(AgentError) -> Nat64State? {
        do { return try await agent.nat64State() } catch where Self.notBuilt(error) { return nil }
    }

    /// DHCPv6-PD as the plan says; returns why it cannot be, or nil.
    private func applyPrefixDelegation(_ plan: RouterPolicyPlan, _ agent: any PolicyControls, _ caps: Capabilities) async throws
        -> String?
    {
        if caps.dhcp6PD == false {
            return plan.dhcp6PD ? "no DHCPv6-PD: otbr-agent is built without it (Capabilities dhcp6_pd false)" : nil
        }
        guard let flags = try await featureFlags(agent) else {
            // Built without feature flags: PD (when built in) runs from the start and cannot be switched.
            if caps.dhcp6PD == true, !plan.dhcp6PD {
                return "DHCPv6-PD cannot be switched off: otbr-agent is built without feature flags (FeatureFlagListData NotImplemented)"
            }
            if caps.dhcp6PD == nil, plan.dhcp6PD {
                return "DHCPv6-PD cannot be switched on: otbr-agent has neither Capabilities nor feature flags"
            }
            return nil
        }
        guard (flags.enableDhcp6PD ?? false) != plan.dhcp6PD else { return nil }
        let nat64Built = caps.nat64 != false
        do {
            try await agent.updateFeatureFlags { list in
                list.enableDhcp6PD = plan.dhcp6PD
                if nat64Built { list.enableNat64 = plan.nat64 }
            }
        } catch where Self.notBuilt(error) {
            return plan.dhcp6PD ? "DHCPv6-PD cannot be switched on: writing FeatureFlagListData answered \(error.reason)" : nil
        } catch where error.cause == .notRunning {
            throw error
        } catch {
            throw ApplyFailure(reason: error.description)
        }
        return nil
    }

    /// NAT64 as the plan says, waiting until `Nat64State` agrees; returns why it cannot be, or nil.
    private func applyNat64(_ plan: RouterPolicyPlan, _ agent: any PolicyControls, _ caps: Capabilities) async throws -> String? {
        if caps.nat64 == false {
            return plan.nat64 ? "no NAT64: otbr-agent is built without it (Capabilities nat64 false)" : nil
        }
        guard let current = try await nat64State(agent) else {
            return plan.nat64 ? "no NAT64: Nat64State answered NotImplemented (built without NAT64)" : nil
        }
        guard current.isEnabled != plan.nat64 else { return nil }
        do {
            try await agent.setNat64Enabled(plan.nat64)
        } catch where Self.notBuilt(error) {
            return plan.nat64 ? "no NAT64: SetNat64Enabled answered \(error.reason)" : nil
        } catch where error.cause == .notRunning {
            throw error
        } catch {
            throw ApplyFailure(reason: error.description)
        }
        let deadline = clock.now().advanced(by: nat64Timeout)
        var state = current
        while true {
            if let read = try await nat64State(agent) { state = read }
            if state.isEnabled == plan.nat64 { return nil }
            guard clock.now() < deadline else {
                throw ApplyFailure(
                    reason: "Nat64State is still \(state) \(nat64Timeout) after SetNat64Enabled(\(plan.nat64))")
            }
            try await clock.sleep(for: nat64PollInterval)
        }
    }

    /// A feature compiled out: `NotImplemented`, or the member missing altogether.
    private static func notBuilt(_ error: AgentError) -> Bool {
        error.openThreadError == .notImplemented || error.cause == .notSupported
    }
}
