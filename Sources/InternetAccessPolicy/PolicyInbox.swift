package import RouterFleet
package import DeviceModel
package import Firewall
import Synchronization
package import TBRFoundation

/// An input of ``PolicyReconciler``, queued until its loop takes it.
package enum PolicyInput: Sendable {
    /// Some structure changed in the store: read them all again.
    case structuresChanged
    /// Someone set a structure's option: apply it again on each of its routers.
    case reapply(StructureID)
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
    /// Someone waits until everything before this input is taken in and its statuses recorded
    /// (``PolicyInbox/barrier()``; the loop answers with ``PolicyInbox/barrierPassed(_:)``).
    case barrier(UInt64)
}

/// The reconciler's queue of inputs: any task submits, the loop takes them one at a time and learns
/// when the queue runs dry (it then records the statuses gathered, so a burst of results makes one
/// store write per structure). Repeated "read the structures again", address changes and ruleset
/// changes collapse into one.
///
/// It takes inputs between ``open()`` and ``close()`` (while the loop runs); before and after, inputs
/// are dropped and a barrier passes at once.
package final class PolicyInbox: Sendable {
    private struct State {
        var queue: [PolicyInput] = []
        var isOpen = false
        var nextBarrier: UInt64 = 0
    }

    private let state = Locked(State())
    private let signal = WakeSignal()
    /// Where ``barrier()`` callers wait for the loop.
    private let barriers = ReplySlots<UInt64, Void>()

    /// Takes inputs from now on.
    package func open() { state.withLock { $0.isOpen = true } }

    /// Queues `input` and wakes the loop; drops it while the inbox is not open (a barrier then passes).
    package func submit(_ input: PolicyInput) {
        let refused = state.withLock { s -> PolicyInput? in
            guard s.isOpen else { return input }
            switch input {
            case .structuresChanged where s.queue.contains(where: { if case .structuresChanged = $0 { true } else { false } }): break
            case .addressesChanged where s.queue.contains(where: { if case .addressesChanged = $0 { true } else { false } }): break
            case .rulesetChanged where s.queue.contains(where: { if case .rulesetChanged = $0 { true } else { false } }): break
            default: s.queue.append(input)
            }
            return nil
        }
        if case .barrier(let id)? = refused { barrierPassed(id) }
        signal.signal()
    }

    /// Returns once the loop has taken in everything submitted before and recorded the statuses, at
    /// once while the inbox is not open, or when the task is cancelled.
    package func barrier() async {
        let id = state.withLock { s -> UInt64 in
            s.nextBarrier += 1
            return s.nextBarrier
        }
        barriers.expect(id)
        submit(.barrier(id))
        try? await barriers.wait(for: id)
    }

    /// The loop reached barrier `id`.
    package func barrierPassed(_ id: UInt64) { barriers.deliver(.success(()), to: id) }

    /// Closes the inbox (the loop has stopped): waiting barriers return, later inputs are dropped.
    package func close() {
        state.withLock { s in
            s.isOpen = false
            s.queue.removeAll()
        }
        barriers.deliverAll(.success(()))
    }

    /// The next input, or nil when the queue is empty.
    package func next() -> PolicyInput? {
        state.withLock { s in s.queue.isEmpty ? nil : s.queue.removeFirst() }
    }

    /// Returns when an input was submitted since the last call (at once if one is waiting), or when the
    /// task is cancelled.
    package func wait() async { await signal.wait() }
}
