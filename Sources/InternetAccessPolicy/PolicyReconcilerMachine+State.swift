import Firewall

/// The machine's timing and what it knows of each router and of the firewall.
extension PolicyReconcilerMachine {
    /// The earliest retry or read-back due, as a timer directive.
    package func timer() -> PolicyDirective {
        var instants: [Instant] = []
        for (id, r) in routers {
            if let t = r.retryAt { instants.append(t) }
            if let t = r.nextCheck, r.online, desiredPlan(id) != nil { instants.append(t) }
        }
        if timing.firewallManaged {
            if let t = firewall.retryAt { instants.append(t) }
            if let t = firewall.nextCheck, firewall.applied?.isEmpty == false { instants.append(t) }
        }
        return instants.min().map { .wake(at: $0) } ?? .cancelWake
    }

    /// The machine's timing and whether it manages a host firewall.
    package struct Timing: Hashable, Sendable {
        /// How often routers of managed structures (and the firewall) are read back for drift.
        var checkInterval: Duration
        /// The first retry's delay after a failure; each further failure doubles it …
        var retryDelay: Duration
        /// … up to this.
        var retryLimit: Duration
        /// Whether tbrd manages a host firewall (false: no firewall directives, a note in the statuses).
        var firewallManaged: Bool

        /// The defaults: checks every 60 s, retries from 1 s to 60 s, a firewall managed.
        init(
            checkInterval: Duration = .seconds(60), retryDelay: Duration = .seconds(1), retryLimit: Duration = .seconds(60),
            firewallManaged: Bool = true
        ) {
            self.checkInterval = checkInterval
            self.retryDelay = retryDelay
            self.retryLimit = retryLimit
            self.firewallManaged = firewallManaged
        }

        /// The delay before retry number `failures`: ``retryDelay`` doubled each time, at most
        /// ``retryLimit``.
        func backoff(_ failures: Int) -> Duration {
            var delay = retryDelay
            for _ in 1..<max(1, min(failures, 32)) where delay < retryLimit { delay *= 2 }
            return min(delay, retryLimit)
        }
    }

    /// What one router's agent last did with a plan.
    package enum AgentOutcome: Hashable, Sendable {
        /// Applied; the note says what the router lacks of `all` (empty otherwise).
        case applied(String)
        case unsupported(String)
        case failed(String)

        /// What an apply's result means for the router's status (an offline router has nothing to apply).
        init(_ outcome: RouterApplyResult.Outcome) {
            switch outcome {
            case .applied(let note): self = .applied(note)
            case .offline: self = .applied("")
            case .unsupported(let why): self = .unsupported(why)
            case .failed(let why): self = .failed(why)
            }
        }
    }

    /// A finished apply: the plan and what came of it.
    package struct Outcome: Hashable, Sendable {
        var plan: RouterPolicyPlan
        var result: AgentOutcome
    }

    /// What the machine knows of one router.
    package struct RouterState: Hashable, Sendable {
        /// Its agent is on the bus.
        var online = false
        /// The plan being applied now.
        var inFlight: RouterPolicyPlan?
        /// The last finished apply; nil when the router must be (re)applied.
        var outcome: Outcome?
        /// Consecutive failures (for the backoff).
        var failures = 0
        /// When a failed apply is tried again.
        var retryAt: Instant?
        /// When the router is next read back for drift.
        var nextCheck: Instant?
        /// A read-back is running.
        var checking = false
        /// Its agent's infrastructure interface, once it said (`InfraLinkInfo`).
        var infrastructureInterface: String?
    }

    /// What the machine knows of tbrd's host firewall.
    package struct FirewallState: Hashable, Sendable {
        /// What is in place; nil when unknown (at start, or after someone changed it). A failed replace
        /// changes nothing (`nft -f` is one transaction), so it stays what it was.
        var applied: FirewallRuleset?
        /// The ruleset being put in place.
        var inFlight: FirewallRuleset?
        /// Why the last replace failed; nil after a success.
        var error: String?
        /// Consecutive failures (for the backoff).
        var failures = 0
        /// When a failed replace is tried again.
        var retryAt: Instant?
        /// When the firewall (and the LAN's prefixes) is next read back.
        var nextCheck: Instant?
        /// A read-back is running.
        var checking = false
        /// The kernel announced a ruleset change that no read-back has looked at yet.
        var changeSeen = false
    }
}
