import DeviceModel
import Firewall
import Synchronization
import TBRFoundation

/// An input of ``PolicyReconciler``, queued until its loop takes it.
enum PolicyInput: Sendable {
    /// Some structure changed in the store: read them all again.
    case structuresChanged
    /// A router appeared, went online or offline.
    case registry(RouterRegistryEvent)
    /// An apply finished.
    case applied(DeviceID, RouterPolicyPlan, RouterApplyResult)
    /// A read-back finished.
    case checked(DeviceID, RouterPolicyPlan, RouterCheckResult)
    /// A firewall replace finished (error nil: in place).
    case firewallReplaced(FirewallRuleset, Result<FirewallSnapshot, FirewallError>)
    /// A firewall read-back finished.
    case firewallChecked(Result<Bool, FirewallError>)
    /// Addresses changed on some interface.
    case addressesChanged
    /// The host's firewall ruleset changed (the kernel's nftables notification).
    case rulesetChanged
    /// The wake-up the machine asked for is due.
    case timer
    /// Someone waits until everything before this input is taken in and its statuses recorded.
    case barrier(CheckedContinuation<Void, Never>)
}

/// The reconciler's queue of inputs: any task submits, the loop takes them one at a time and learns
/// when the queue runs dry (it then records the statuses gathered, so a burst of results makes one
/// store write per structure). Repeated "read the structures again", address changes and ruleset
/// changes collapse into one.
final class PolicyInbox: Sendable {
    private struct State {
        var queue: [PolicyInput] = []
        var closed = false
    }

    private let state = Locked(State())
    private let signal = WakeSignal()

    /// Queues `input` and wakes the loop. Once the inbox is closed, a barrier returns at once and other
    /// inputs are dropped.
    func submit(_ input: PolicyInput) {
        let refused = state.withLock { s -> PolicyInput? in
            guard !s.closed else { return input }
            switch input {
            case .structuresChanged where s.queue.contains(where: { if case .structuresChanged = $0 { true } else { false } }): break
            case .addressesChanged where s.queue.contains(where: { if case .addressesChanged = $0 { true } else { false } }): break
            case .rulesetChanged where s.queue.contains(where: { if case .rulesetChanged = $0 { true } else { false } }): break
            default: s.queue.append(input)
            }
            return nil
        }
        if case .barrier(let waiter)? = refused { waiter.resume() }
        signal.signal()
    }

    /// Closes the inbox (the loop has stopped): waiting barriers return, later inputs are dropped.
    func close() {
        let left = state.withLock { s -> [PolicyInput] in
            s.closed = true
            defer { s.queue.removeAll() }
            return s.queue
        }
        for case .barrier(let waiter) in left { waiter.resume() }
    }

    /// The next input, or nil when the queue is empty.
    func next() -> PolicyInput? {
        state.withLock { s in s.queue.isEmpty ? nil : s.queue.removeFirst() }
    }

    /// Returns when an input was submitted since the last call (at once if one is waiting), or when the
    /// task is cancelled.
    func wait() async { await signal.wait() }
}
