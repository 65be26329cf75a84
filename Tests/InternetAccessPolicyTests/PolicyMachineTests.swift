@testable import InternetAccessPolicy
import DeviceModel
import Firewall
import TBRFoundation
import TBRTestKit
import TBRFoundation
import Testing

typealias Option = ThreadNetworkSettingsTrait.InternetAccessOption

/// The policy reconciler's machine on a manual clock: which routers it applies, when it reads back and
/// retries, what the firewall must hold, each router's status. No I/O, no sleeping.
struct PolicyHarness {
    let clock = ManualClock()
    var machine: PolicyReconcilerMachine
    var now: ContinuousClock.Instant { clock.now() }

    init(firewall: Bool = true, checkInterval: Duration = .seconds(60)) {
        machine = PolicyReconcilerMachine(
            timing: .init(checkInterval: checkInterval, retryDelay: .seconds(1), retryLimit: .seconds(8), firewallManaged: firewall))
    }

    func later(_ d: Duration) -> ContinuousClock.Instant { now.advanced(by: d) }
    mutating func advance(_ d: Duration) { clock.advance(by: d) }

    static func home(_ option: Option, _ members: [DeviceID] = ["wpan0"]) -> StructureSnapshot {
        StructureSnapshot(id: "1", option: option, members: members)
    }

    static func plan(_ option: Option) -> RouterPolicyPlan { RouterPolicyPlan(option)! }

    /// The statuses a list of directives publishes for structure "1".
    static func published(_ directives: [PolicyDirective]) -> [RouterPolicyStatus]? {
        for case .publish(let id, _, let statuses) in directives where id == "1" { return statuses }
        return nil
    }

    static func applied(_ infra: String? = "eth0") -> RouterApplyResult { RouterApplyResult(outcome: .applied(""), infrastructureInterface: infra) }
}

extension Array where Element == PolicyDirective {
    var applies: [DeviceID] { compactMap { if case .applyRouter(let id, _) = $0 { id } else { nil } } }
    var firewall: FirewallRuleset? { compactMap { if case .replaceFirewall(let r) = $0 { r } else { nil } }.first }
    var timer: PolicyDirective? { last { $0 == .cancelWake || { if case .wake = $0 { true } else { false } }($0) } }
}

@Suite struct PolicyMachineTests {
    @Test func atStartEveryOnlineRouterOfAManagedStructureIsAppliedAndTheFirewallReplaced() throws {
        var h = PolicyHarness()
        let d = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNone, ["wpan0", "wpan1"])], online: ["wpan0"], now: h.now)
        #expect(d.applies == ["wpan0"], "wpan1 is offline")
        // The firewall holds for the offline router too: the rules do not need its agent.
        let rules = try #require(d.firewall)
        #expect(rules.entries.map(\.threadInterface) == ["wpan0", "wpan1"])
        #expect(rules.entries.allSatisfy { $0.restriction == .lanOnly && $0.lan == .none })
        let statuses = try #require(PolicyHarness.published(d))
        #expect(statuses.map(\.state) == [.pending, .pending])
        #expect(statuses[1].detail.contains("offline"))
        #expect(d.timer == .cancelWake)
    }

    @Test func aStartWithNothingManagedStillClearsWhateverTableWasLeft() {
        var h = PolicyHarness()
        let d = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionUnspecified)], online: ["wpan0"], now: h.now)
        #expect(d.applies.isEmpty, "unspecified: tbrd leaves the agent alone")
        #expect(d.firewall == FirewallRuleset(), "an empty ruleset removes table inet tbrd")
        #expect(PolicyHarness.published(d)?.first?.state == .pending)
        let after = h.machine.firewallReplaced(FirewallRuleset(), error: nil, now: h.now)
        #expect(PolicyHarness.published(after) == [RouterPolicyStatus(deviceID: "wpan0", state: .applied, detail: "not managed")])
        #expect(after.timer == .cancelWake, "nothing to read back")
    }

    @Test func anAppliedRouterIsReadBackEveryIntervalAndDriftIsAppliedAway() throws {
        var h = PolicyHarness()
        let plan = PolicyHarness.plan(.internetAccessOptionNat64Only)
        _ = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNat64Only)], online: ["wpan0"], now: h.now)
        // The router names its infrastructure interface: its prefixes are read before the firewall is worked out.
        var d = h.machine.applyFinished("wpan0", plan: plan, result: PolicyHarness.applied("lan0"), now: h.now)
        #expect(d == [.readLinkAddresses(["lan0"])])
        let lan = LinkAddresses(ipv6: [IPv6Prefix("2001:db8:1::/64")!], ipv4: [IPv4Subnet("192.0.2.0/24")!])
        d = h.machine.linkAddressesRead(["lan0": lan], now: h.now)
        #expect(d.firewall == nil, "the first replace is still running")
        d = h.machine.firewallReplaced(try #require(h.machine.firewall.inFlight), error: nil, now: h.now)
        let corrected = try #require(d.firewall, "the ruleset without the LAN's prefixes is replaced")
        #expect(corrected.entries == [.init(threadInterface: "wpan0", restriction: .noGlobalIPv6, lan: lan)])
        d = h.machine.firewallReplaced(corrected, error: nil, now: h.now)
        #expect(PolicyHarness.published(d) == [RouterPolicyStatus(deviceID: "wpan0", state: .applied)])
        #expect(d.timer == .wake(at: h.later(.seconds(60))))

        h.advance(.seconds(60))
        d = h.machine.timerFired(now: h.now)
        #expect(d.contains(.checkRouter("wpan0", plan)) && d.contains(.checkFirewall))
        d = h.machine.firewallChecked(intact: true, error: nil, now: h.now)
        #expect(d == [.readLinkAddresses(["lan0"])], "the LAN's prefixes are read again at each read-back")
        d = h.machine.linkAddressesRead(["lan0": lan], now: h.now)
        #expect(d.firewall == nil, "the same prefixes change nothing")
        d = h.machine.checkFinished("wpan0", plan: plan, result: .drifted("NAT64 is (disabled, disabled)"), now: h.now)
        #expect(d.applies == ["wpan0"])
        #expect(PolicyHarness.published(d)?.first?.state == .pending)
        d = h.machine.applyFinished("wpan0", plan: plan, result: PolicyHarness.applied("lan0"), now: h.now)
        #expect(PolicyHarness.published(d)?.first?.state == .applied)
        #expect(d.applies.isEmpty && d.firewall == nil)
    }

    @Test func applyingTwiceChangesNothing() {
        var h = PolicyHarness(firewall: false)
        let home = PolicyHarness.home(.internetAccessOptionNone)
        _ = h.machine.start(structures: [home], online: ["wpan0"], now: h.now)
        _ = h.machine.applyFinished("wpan0", plan: PolicyHarness.plan(.internetAccessOptionNone), result: PolicyHarness.applied(), now: h.now)
        // The same structures again, the same router online twice in a row: nothing new to do.
        let again = h.machine.structuresRead([home], now: h.now)
        #expect(again.applies.isEmpty && PolicyHarness.published(again) == nil)
        #expect(h.machine.status("wpan0") == RouterPolicyStatus(deviceID: "wpan0", state: .applied, detail: "no host firewall rules: tbrd's firewall is off"))
    }

    @Test func settingTheOptionAgainAppliesItAgainAtOnce() {
        var h = PolicyHarness(firewall: false)
        let home = PolicyHarness.home(.internetAccessOptionNat64Only, ["wpan0", "wpan1"])
        let plan = PolicyHarness.plan(.internetAccessOptionNat64Only)
        _ = h.machine.start(structures: [home], online: ["wpan0", "wpan1"], now: h.now)
        _ = h.machine.applyFinished("wpan0", plan: plan, result: .init(outcome: .unsupported("no NAT64: built without it")), now: h.now)
        _ = h.machine.applyFinished("wpan1", plan: plan, result: .init(outcome: .failed("SetNat64Enabled failed")), now: h.now)
        // The same option set again (the agent mended meanwhile): both are applied now, not at the next
        // read-back (60 s) or retry, and are pending until that is done.
        _ = h.machine.structuresRead([home], now: h.now)
        let d = h.machine.reapply("1", now: h.now)
        #expect(Set(d.applies) == ["wpan0", "wpan1"])
        #expect(PolicyHarness.published(d)?.map(\.state) == [.pending, .pending])
        let done = h.machine.applyFinished("wpan0", plan: plan, result: PolicyHarness.applied(), now: h.now)
        #expect(PolicyHarness.published(done)?.first?.state == .applied)
        // A router being applied is left to finish; another structure's routers are not touched.
        #expect(h.machine.reapply("1", now: h.now).applies == ["wpan0"], "wpan1's apply is still running")
        #expect(h.machine.reapply("2", now: h.now).applies.isEmpty)
    }

    @Test func failuresAreRetriedWithADoublingCappedBackoff() {
        var h = PolicyHarness(firewall: false)
        let plan = PolicyHarness.plan(.internetAccessOptionAll)
        _ = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionAll)], online: ["wpan0"], now: h.now)
        var waits: [Duration] = []
        for _ in 0..<6 {
            let d = h.machine.applyFinished("wpan0", plan: plan, result: .init(outcome: .failed("SetNat64Enabled failed")), now: h.now)
            #expect(PolicyHarness.published(d) == nil || PolicyHarness.published(d)?.first?.state == .failed)
            #expect(h.machine.status("wpan0").state == .failed && h.machine.status("wpan0").detail.contains("SetNat64Enabled failed"))
            guard case .wake(let at)? = d.timer else { Issue.record("no retry scheduled"); return }
            waits.append(at - h.now)
            h.advance(at - h.now)
            #expect(h.machine.timerFired(now: h.now).applies == ["wpan0"])
        }
        #expect(waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
        let d = h.machine.applyFinished("wpan0", plan: plan, result: PolicyHarness.applied(), now: h.now)
        #expect(PolicyHarness.published(d)?.first?.state == .applied)
        #expect(d.timer == .wake(at: h.later(.seconds(60))), "after a success: the read-back, no retry")
    }

    @Test func anOfflineRouterIsPendingAndAppliedWhenItsAgentReturns() {
        var h = PolicyHarness(firewall: false)
        var d = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNone)], online: [], now: h.now)
        #expect(d.applies.isEmpty)
        #expect(h.machine.status("wpan0").state == .pending)
        d = h.machine.routerOnline("wpan0", now: h.now)
        #expect(d.applies == ["wpan0"])
        d = h.machine.applyFinished("wpan0", plan: PolicyHarness.plan(.internetAccessOptionNone), result: PolicyHarness.applied(), now: h.now)
        #expect(PolicyHarness.published(d)?.first?.state == .applied)
        // It restarts (crash, LeaveNetwork): offline, then applied afresh when it is back.
        d = h.machine.routerOffline("wpan0", now: h.now)
        #expect(PolicyHarness.published(d)?.first?.state == .pending && d.timer == .cancelWake)
        #expect(h.machine.routerOnline("wpan0", now: h.now).applies == ["wpan0"])
    }

    @Test func aResultForAnOptionNoLongerWantedStartsTheWantedOne() {
        var h = PolicyHarness(firewall: false)
        _ = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNone)], online: ["wpan0"], now: h.now)
        // The option changes while the first apply runs: nothing new starts on that router meanwhile …
        var d = h.machine.structuresRead([PolicyHarness.home(.internetAccessOptionAll)], now: h.now)
        #expect(d.applies.isEmpty)
        // … and the old apply's success does not count for the new option.
        d = h.machine.applyFinished("wpan0", plan: PolicyHarness.plan(.internetAccessOptionNone), result: PolicyHarness.applied(), now: h.now)
        #expect(d.contains(.applyRouter("wpan0", PolicyHarness.plan(.internetAccessOptionAll))))
        #expect(h.machine.status("wpan0").state == .pending)
    }

    @Test func anUnsupportedOptionIsReportedWithTheReasonAndTheFirewallStillApplied() throws {
        var h = PolicyHarness()
        let plan = PolicyHarness.plan(.internetAccessOptionNat64Only)
        _ = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNat64Only)], online: ["wpan0"], now: h.now)
        let rules = try #require(h.machine.firewall.inFlight)
        _ = h.machine.firewallReplaced(rules, error: nil, now: h.now)
        let d = h.machine.applyFinished(
            "wpan0", plan: plan, result: .init(outcome: .unsupported("no NAT64: built without it"), infrastructureInterface: nil), now: h.now)
        #expect(PolicyHarness.published(d) == [RouterPolicyStatus(deviceID: "wpan0", state: .unsupported, detail: "no NAT64: built without it")])
        #expect(h.machine.firewall.applied?.entries.map(\.threadInterface) == ["wpan0"])
        #expect(d.timer == .wake(at: h.later(.seconds(60))), "what it can do is still read back")
    }

    @Test func aFirewallThatCannotBeReplacedFailsItsRoutersAndIsRetried() throws {
        var h = PolicyHarness()
        var d = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNone)], online: ["wpan0"], now: h.now)
        let rules = try #require(d.firewall)
        _ = h.machine.applyFinished("wpan0", plan: PolicyHarness.plan(.internetAccessOptionNone), result: PolicyHarness.applied(nil), now: h.now)
        d = h.machine.firewallReplaced(rules, error: "nft exited with status 1: Operation not permitted", now: h.now)
        #expect(PolicyHarness.published(d)
            == [RouterPolicyStatus(deviceID: "wpan0", state: .failed, detail: "host firewall: nft exited with status 1: Operation not permitted")])
        #expect(d.timer == .wake(at: h.later(.seconds(1))))
        h.advance(.seconds(1))
        d = h.machine.timerFired(now: h.now)
        #expect(d.firewall == rules)
        d = h.machine.firewallReplaced(rules, error: nil, now: h.now)
        #expect(PolicyHarness.published(d)?.first?.state == .applied)
    }

    @Test func aRouterLeavingItsStructureLosesItsRulesAndItsStatus() throws {
        var h = PolicyHarness()
        var d = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNone, ["wpan0", "wpan1"])], online: ["wpan0", "wpan1"], now: h.now)
        _ = h.machine.firewallReplaced(try #require(d.firewall), error: nil, now: h.now)
        d = h.machine.structuresRead([PolicyHarness.home(.internetAccessOptionNone, ["wpan0"])], now: h.now)
        #expect(d.firewall?.entries.map(\.threadInterface) == ["wpan0"])
        #expect(PolicyHarness.published(d)?.map(\.deviceID) == ["wpan0"])
        // Back to unspecified while that replace runs: every rule goes once it is done; the agents are left alone.
        let running = try #require(d.firewall)
        d = h.machine.structuresRead([PolicyHarness.home(.internetAccessOptionUnspecified, ["wpan0"])], now: h.now)
        #expect(d.firewall == nil && d.applies.isEmpty, "one replace at a time")
        // wpan0's status is not applied while a replace that still has its rules is under way.
        #expect(h.machine.status("wpan0").state == .pending)
        #expect(h.machine.firewallReplaced(running, error: nil, now: h.now).firewall == FirewallRuleset())
        #expect(h.machine.status("wpan0").state == .pending)
        #expect(PolicyHarness.published(h.machine.firewallReplaced(FirewallRuleset(), error: nil, now: h.now))?.first?.state == .applied)
    }

    @Test func addressChangesReadTheLANAgainAndChangeTheRulesOnlyWhenThePrefixesDo() throws {
        var h = PolicyHarness()
        _ = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNone)], online: ["wpan0"], now: h.now)
        _ = h.machine.applyFinished("wpan0", plan: PolicyHarness.plan(.internetAccessOptionNone), result: PolicyHarness.applied("lan0"), now: h.now)
        let first = LinkAddresses(ipv6: [IPv6Prefix("2001:db8:1::/64")!])
        _ = h.machine.linkAddressesRead(["lan0": first], now: h.now)
        _ = h.machine.firewallReplaced(try #require(h.machine.firewall.inFlight), error: nil, now: h.now)
        var d = h.machine.firewallReplaced(try #require(h.machine.firewall.inFlight), error: nil, now: h.now)
        #expect(h.machine.firewall.applied?.entries.first?.lan == first && d.firewall == nil)
        d = h.machine.addressesChanged(now: h.now)
        #expect(d == [.readLinkAddresses(["lan0"])])
        #expect(h.machine.linkAddressesRead(["lan0": first], now: h.now).firewall == nil)
        let second = LinkAddresses(ipv6: [IPv6Prefix("2001:db8:1::/64")!, IPv6Prefix("2001:db8:2::/64")!])
        _ = h.machine.addressesChanged(now: h.now)
        #expect(h.machine.linkAddressesRead(["lan0": second], now: h.now).firewall?.entries.first?.lan == second)
    }

    @Test func aFirewallSomeoneChangedIsReplaced() throws {
        var h = PolicyHarness(checkInterval: .seconds(5))
        _ = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNone)], online: [], now: h.now)
        let rules = try #require(h.machine.firewall.inFlight)
        _ = h.machine.firewallReplaced(rules, error: nil, now: h.now)
        h.advance(.seconds(5))
        #expect(h.machine.timerFired(now: h.now).contains(.checkFirewall))
        #expect(h.machine.firewallChecked(intact: false, error: nil, now: h.now).firewall == rules)
    }

    @Test func withoutAFirewallThereAreNoFirewallDirectives() {
        var h = PolicyHarness(firewall: false)
        let d = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNone)], online: ["wpan0"], now: h.now)
        #expect(d.firewall == nil)
        let after = h.machine.applyFinished("wpan0", plan: PolicyHarness.plan(.internetAccessOptionNone), result: PolicyHarness.applied(), now: h.now)
        #expect(!after.contains { if case .readLinkAddresses = $0 { true } else { false } })
        #expect(PolicyHarness.published(after)?.first?.state == .applied)
    }

    @Test func plansFollowTheArchitectureTable() {
        #expect(RouterPolicyPlan(.internetAccessOptionUnspecified) == nil)
        let table: [(Option, Bool, Bool, FirewallRuleset.Restriction?)] = [
            (.internetAccessOptionAll, true, true, nil), (.internetAccessOptionNat64Only, true, false, .noGlobalIPv6),
            (.internetAccessOptionDhcpv6PdOnly, false, true, nil), (.internetAccessOptionNone, false, false, .lanOnly),
        ]
        for (option, nat64, pd, restriction) in table {
            let plan = PolicyHarness.plan(option)
            #expect(plan.nat64 == nat64 && plan.dhcp6PD == pd && RouterPolicyPlan.restriction(option) == restriction, "\(option)")
        }
    }

    /// `all` is the most internet the router can give; every other option is exactly its parts.
    @Test func allIsAppliedWhenOnePathRunsAndOtherOptionsNeedEveryPart() {
        let all = PolicyHarness.plan(.internetAccessOptionAll)
        #expect(all.outcome(nat64Lacking: nil, dhcp6PDLacking: nil) == .applied(""))
        #expect(all.outcome(nat64Lacking: nil, dhcp6PDLacking: "no DHCPv6-PD") == .applied("internet through NAT64 only: no DHCPv6-PD"))
        #expect(all.outcome(nat64Lacking: "no NAT64", dhcp6PDLacking: nil) == .applied("internet through DHCPv6-PD only: no NAT64"))
        #expect(all.outcome(nat64Lacking: "no NAT64", dhcp6PDLacking: "no DHCPv6-PD") == .unsupported("no DHCPv6-PD; no NAT64"))
        #expect(PolicyHarness.plan(.internetAccessOptionDhcpv6PdOnly).outcome(nat64Lacking: nil, dhcp6PDLacking: "no DHCPv6-PD") == .unsupported("no DHCPv6-PD"))
        #expect(PolicyHarness.plan(.internetAccessOptionNat64Only).outcome(nat64Lacking: "no NAT64", dhcp6PDLacking: nil) == .unsupported("no NAT64"))
    }

    /// The kernel announces a ruleset change: tbrd's table is read back at once, not at the next poll;
    /// never while a replace runs (the change is looked at after it), and no replace starts while a
    /// read-back runs.
    @Test func aRulesetChangeIsReadBackAtOnceAndNeverBesideAReplace() throws {
        var h = PolicyHarness(checkInterval: .seconds(3600))
        var d = h.machine.start(structures: [PolicyHarness.home(.internetAccessOptionNone)], online: ["wpan0"], now: h.now)
        let rules = try #require(d.firewall)
        // Announced while the replace runs (tbrd's own change, or anyone's): no read-back beside it …
        d = h.machine.rulesetChanged(now: h.now)
        #expect(!d.contains(.checkFirewall))
        // … but right after it.
        d = h.machine.firewallReplaced(rules, error: nil, now: h.now)
        #expect(d.contains(.checkFirewall))
        // While that read-back runs, the structure changes: its replace waits for the read-back.
        d = h.machine.structuresRead([PolicyHarness.home(.internetAccessOptionNat64Only)], now: h.now)
        #expect(d.firewall == nil, "no replace on a snapshot about to be read back")
        // Someone flushed the ruleset: the read-back says so, and the wanted table is put in place.
        d = h.machine.firewallChecked(intact: false, error: nil, now: h.now)
        #expect(d.firewall?.entries.first?.restriction == .noGlobalIPv6)
        _ = h.machine.firewallReplaced(try #require(d.firewall), error: nil, now: h.now)
        // A change announced when nothing runs is read back at once.
        #expect(h.machine.rulesetChanged(now: h.now).contains(.checkFirewall))
    }
}
