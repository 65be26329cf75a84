import DeviceModel
import Firewall
import Synchronization

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
    /// The wake-up the machine asked for is due.
    case timer
}

/// The reconciler's queue of inputs: any task submits, the loop takes them one at a time and learns
/// when the queue runs dry (it then records the statuses gathered, so a burst of results makes one
/// store write per structure). Repeated "read the structures again" and address changes collapse
/// into one.
final class PolicyInbox: Sendable {
    private let queue = Mutex<[PolicyInput]>([])
    private let signal = WakeSignal()

    /// Queues `input` and wakes the loop.
    func submit(_ input: PolicyInput) {
        queue.withLock { q in
            switch input {
            case .structuresChanged where q.contains(where: { if case .structuresChanged = $0 { true } else { false } }): return
            case .addressesChanged where q.contains(where: { if case .addressesChanged = $0 { true } else { false } }): return
            default: q.append(input)
            }
        }
        signal.signal()
    }

    /// The next input, or nil when the queue is empty.
    func next() -> PolicyInput? {
        queue.withLock { q in q.isEmpty ? nil : q.removeFirst() }
    }

    /// Returns when an input was submitted since the last call (at once if one is waiting), or when the
    /// task is cancelled.
    func wait() async { await signal.wait() }
}
