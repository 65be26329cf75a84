/// The owners of the well-known names that signal subscriptions filter on (``MatchRule/sender``).
///
/// Plain state, changed only by the connection's actor, which carries out what it returns. A name is
/// followed while at least one subscription uses it: the first adds a `NameOwnerChanged` match rule for
/// it (later ones wait until that rule is on the bus), and then every subscription asks `GetNameOwner`
/// once. From then on each `NameOwnerChanged` sets the owner.
///
/// The bus sends the `GetNameOwner` reply and any later `NameOwnerChanged` in order, but the reply
/// reaches the actor only after the queue has dispatched whatever arrived with it, so a newer
/// `NameOwnerChanged` (say, to no owner) can be applied *before* the older answer. Each entry therefore
/// counts the changes it has applied; a lookup takes that count as its ticket when it is asked, and its
/// answer is installed only if no change arrived since.
struct OwnerTable {
    /// What a subscription that starts following a name must do first.
    enum Start: Equatable {
        /// Add the `NameOwnerChanged` rule, then report ``ruleAdded(_:)`` or ``ruleFailed(_:)``.
        case addRule
        /// Another subscription is adding the rule: wait with ``waitForRule(_:_:)``.
        case waitForRule
        /// The rule is on the bus already.
        case ready
    }

    typealias Waiter = CheckedContinuation<Void, any Error>

    private struct Entry {
        var owner: String?
        var users = 1
        var changes: UInt64 = 0
        var ruleAdded = false
        var waiters: [Waiter] = []
    }

    private var entries: [String: Entry] = [:]

    /// The unique name owning `name` as far as this connection knows, nil if none or not followed.
    func owner(of name: String) -> String? { entries[name]?.owner }

    /// Whether `name` is followed.
    func isFollowing(_ name: String) -> Bool { entries[name] != nil }

    /// One more subscription follows `name`.
    mutating func retain(_ name: String) -> Start {
        guard var entry = entries[name] else {
            entries[name] = Entry()
            return .addRule
        }
        entry.users += 1
        entries[name] = entry
        return entry.ruleAdded ? .ready : .waitForRule
    }

    /// Parks a subscription until the rule for `name` is added (resumed) or fails (resumed throwing).
    mutating func waitForRule(_ name: String, _ waiter: Waiter) {
        entries[name]?.waiters.append(waiter)
    }

    /// The `NameOwnerChanged` rule for `name` is on the bus; returns the subscriptions to resume.
    mutating func ruleAdded(_ name: String) -> [Waiter] {
        guard var entry = entries[name] else { return [] }
        entry.ruleAdded = true
        let waiters = entry.waiters
        entry.waiters = []
        entries[name] = entry
        return waiters
    }

    /// Adding the rule for `name` failed: nobody follows it any more. Returns the waiting subscriptions
    /// to fail; neither they nor the one that tried call ``release(_:)``.
    mutating func ruleFailed(_ name: String) -> [Waiter] {
        entries.removeValue(forKey: name)?.waiters ?? []
    }

    /// A `GetNameOwner` for `name` is about to be sent; pass the ticket to ``lookupAnswered(_:owner:ticket:)``.
    func lookupTicket(_ name: String) -> UInt64 { entries[name]?.changes ?? 0 }

    /// The answer to a `GetNameOwner` asked with `ticket`. Installed only if no `NameOwnerChanged` for
    /// `name` was applied since the ticket was taken (such a change is at least as new as the answer).
    /// Returns whether it was installed.
    @discardableResult
    mutating func lookupAnswered(_ name: String, owner: String?, ticket: UInt64) -> Bool {
        guard var entry = entries[name], entry.changes == ticket else { return false }
        entry.owner = owner
        entries[name] = entry
        return true
    }

    /// A `NameOwnerChanged` for `name` arrived (`newOwner` nil when the name is now unowned). Ignored for
    /// names nobody follows.
    mutating func ownerChanged(_ name: String, to newOwner: String?) {
        guard var entry = entries[name] else { return }
        entry.owner = newOwner
        entry.changes &+= 1
        entries[name] = entry
    }

    /// One subscription stops following `name`. Returns true when it was the last one and the rule
    /// it added must be removed from the bus.
    mutating func release(_ name: String) -> Bool {
        guard var entry = entries[name] else { return false }
        entry.users -= 1
        guard entry.users == 0 else {
            entries[name] = entry
            return false
        }
        entries[name] = nil
        return entry.ruleAdded
    }

    /// Forgets every name (the connection closed); returns the subscriptions still waiting for a rule.
    mutating func removeAll() -> [Waiter] {
        let waiters = entries.values.flatMap(\.waiters)
        entries.removeAll()
        return waiters
    }
}
