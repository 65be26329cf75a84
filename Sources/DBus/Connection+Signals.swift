extension Connection {
    /// Subscribes to signals matching `rule`.
    ///
    /// The rule is registered with the bus before this returns. If `rule.sender` is a well-known name,
    /// its owner is tracked so signals from a new owner are delivered and those of others are not.
    /// - Parameter bufferLimit: signals kept for a slow consumer before newer ones are dropped.
    /// - Throws: ``DBusError`` if the bus refuses the rule.
    public func signals(matching rule: MatchRule, bufferLimit: Int = 1024) async throws -> SignalStream {
        if let sender = rule.sender, !sender.isUnique, sender != .bus {
            try await trackOwner(of: sender)
        }
        do {
            _ = try await callBus("AddMatch", [.string(rule.description)])
        } catch {
            if let sender = rule.sender { await untrackOwner(of: sender) }
            throw error
        }
        let (stream, continuation) = AsyncThrowingStream<Signal, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(bufferLimit))
        let drops = DropCounter()
        let id = nextSubscriptionID
        nextSubscriptionID += 1
        subscriptions[id] = Subscription(rule: rule, continuation: continuation, drops: drops, ownsMatchRule: true)
        continuation.onTermination = { [handle] _ in
            handle.onQueue { $0.removeSubscription(id) }
        }
        return SignalStream(base: stream, drops: drops, bufferLimit: bufferLimit)
    }

    /// Ends subscription `id` and removes its match rule from the bus.
    func removeSubscription(_ id: UInt64) {
        guard let sub = subscriptions.removeValue(forKey: id) else { return }
        guard isOpen else { return }
        if sub.ownsMatchRule {
            try? callNoReply(destination: .bus, path: ObjectPath(unchecked: "/org/freedesktop/DBus"), interface: .bus,
                             member: "RemoveMatch", arguments: [.string(sub.rule.description)])
        }
        if let sender = sub.rule.sender, !sender.isUnique, sender != .bus {
            releaseOwnerTracking(sender)
        }
    }

    /// Hands a signal to every matching subscription, in arrival order.
    func deliverSignal(_ message: Message) {
        if message.sender == BusName.bus.rawValue, message.member?.rawValue == "NameOwnerChanged",
            message.body.count == 3, case .string(let name) = message.body[0],
            case .string(let newOwner) = message.body[2], trackedOwners[name] != nil
        {
            trackedOwners[name]?.owner = newOwner.isEmpty ? nil : newOwner
        }
        guard let signal = Signal(message) else { return }
        for (_, sub) in subscriptions {
            let owner = sub.rule.sender.flatMap { trackedOwners[$0.rawValue]?.owner }
            guard sub.rule.matches(message, senderOwner: owner) else { continue }
            sub.yield(signal)
        }
    }

    // MARK: owner tracking for well-known senders

    private func trackOwner(of name: BusName) async throws {
        if trackedOwners[name.rawValue] != nil {
            trackedOwners[name.rawValue]!.users += 1
            return
        }
        trackedOwners[name.rawValue] = TrackedOwner(owner: nil, users: 1)
        do {
            _ = try await callBus("AddMatch", [.string(MatchRule.nameOwnerChanged(name).description)])
            let owner = try await nameOwner(of: name)
            // A NameOwnerChanged that arrived after GetNameOwner was answered is newer; keep it.
            if trackedOwners[name.rawValue]?.owner == nil { trackedOwners[name.rawValue]?.owner = owner }
        } catch {
            releaseOwnerTracking(name)
            throw error
        }
    }

    private func untrackOwner(of name: BusName) async {
        if !name.isUnique, name != .bus { releaseOwnerTracking(name) }
    }

    private func releaseOwnerTracking(_ name: BusName) {
        guard var tracked = trackedOwners[name.rawValue] else { return }
        tracked.users -= 1
        if tracked.users > 0 {
            trackedOwners[name.rawValue] = tracked
            return
        }
        trackedOwners[name.rawValue] = nil
        if isOpen {
            try? callNoReply(destination: .bus, path: ObjectPath(unchecked: "/org/freedesktop/DBus"), interface: .bus,
                             member: "RemoveMatch", arguments: [.string(MatchRule.nameOwnerChanged(name).description)])
        }
    }
}
