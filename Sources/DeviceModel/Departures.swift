import TBRFoundation

/// The subscriptions whose streams ended, until their owner next holds its own lock and forgets them.
///
/// A stream's `onTermination` runs while Swift holds the cancelled task's status lock; taking an owner's
/// lock there (to remove the subscriber) inverts the order of a delivery, which yields under the owner's
/// lock and needs that task's lock to wake it: a deadlock seen when tbrd was stopped as a stream ended.
/// So `onTermination` only records the id here (a lock of its own, never held while taking another), and
/// ``AttributeCell`` and ``EventBroadcaster`` remove those subscribers the next time they hold their lock.
final class Departures: Sendable {
    private let ids = Locked<[UInt64]>([])

    /// Subscription `id`'s stream ended.
    func leave(_ id: UInt64) { ids.withLock { $0.append(id) } }

    /// Removes every departed subscription from `subscribers` (called under the owner's lock).
    func prune<S>(_ subscribers: inout [UInt64: S]) {
        for id in ids.withLock({ list -> [UInt64] in defer { list.removeAll() }; return list }) {
            subscribers.removeValue(forKey: id)
        }
    }
}
