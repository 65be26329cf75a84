extension Connection {
    /// Subscribes to signals matching `rule`.
    ///
    /// The rule is registered with the bus before this returns. If `rule.sender` is a well-known name,
    /// its owner is tracked so signals from a new owner are delivered and those of others are not.
    /// - Parameter bufferLimit: signals kept for a slow consumer before newer ones are dropped.
    /// - Throws: ``DBusError`` if the bus refuses the rule.
    public func signals(matching rule: MatchRule, bufferLimit: Int = 1024) async throws -> SignalStream {
        guard isOpen else { throw DBusError.disconnected() }
        let followed = rule.sender.flatMap(Self.followedName)
        if let followed { try await follow(followed) }
        do {
            _ = try await callBus("AddMatch", [.string(rule.description)])
        } catch {
            if let followed { unfollow(followed) }
            throw error
        }
        let (stream, continuation) = AsyncThrowingStream<Signal, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(bufferLimit))
        let drops = DropCounter()
        let id = nextSubscriptionID
        nextSubscriptionID += 1
        guard isOpen else {
            // Closed while the rule was being added: the stream ends like the others did.
            continuation.finish(throwing: DBusError.disconnected())
            return SignalStream(base: stream, drops: drops, bufferLimit: bufferLimit)
        }
        subscriptions[id] = Subscription(rule: rule, continuation: continuation, drops: drops)
        continuation.onTermination = { [handle] _ in
            handle.onQueue { $0.removeSubscription(id) }
        }
        return SignalStream(base: stream, drops: drops, bufferLimit: bufferLimit)
    }

    /// Ends subscription `id` and removes its match rule from the bus.
    func removeSubscription(_ id: UInt64) {
        guard let sub = subscriptions.removeValue(forKey: id), isOpen else { return }
        try? callNoReply(destination: .bus, path: ObjectPath(unchecked: "/org/freedesktop/DBus"), interface: .bus,
                         member: "RemoveMatch", arguments: [.string(sub.rule.description)])
        if let followed = sub.rule.sender.flatMap(Self.followedName) { unfollow(followed) }
    }

    /// Hands a signal to every matching subscription, in arrival order.
    func deliverSignal(_ message: Message) {
        if message.sender == BusName.bus.rawValue, message.member?.rawValue == "NameOwnerChanged",
            message.body.count == 3, case .string(let name) = message.body[0], case .string(let newOwner) = message.body[2]
        {
            owners.ownerChanged(name, to: newOwner.isEmpty ? nil : newOwner)
        }
        guard let signal = Signal(message) else { return }
        for (_, sub) in subscriptions {
            let owner = sub.rule.sender.flatMap { owners.owner(of: $0.rawValue) }
            guard sub.rule.matches(message, senderOwner: owner) else { continue }
            sub.yield(signal)
        }
    }

    // MARK: owner tracking for well-known senders (see OwnerTable)

    /// The name whose owner a rule with this sender follows: well-known names other than the bus's.
    static func followedName(_ sender: BusName) -> String? {
        sender.isUnique || sender == .bus ? nil : sender.rawValue
    }

    /// Follows `name` for one more subscription: its `NameOwnerChanged` rule is on the bus and its
    /// current owner is known when this returns.
    private func follow(_ name: String) async throws {
        switch owners.retain(name) {
        case .addRule:
            do {
                _ = try await callBus("AddMatch", [.string(MatchRule.nameOwnerChanged(BusName(unchecked: name)).description)])
            } catch {
                for waiter in owners.ruleFailed(name) { waiter.resume(throwing: error) }
                throw error
            }
            for waiter in owners.ruleAdded(name) { waiter.resume() }
        case .waitForRule:
            // If the rule fails, the table has already forgotten this subscription: nothing to release.
            try await withCheckedThrowingContinuation { owners.waitForRule(name, $0) }
        case .ready:
            break
        }
        let ticket = owners.lookupTicket(name)
        do {
            let owner = try await nameOwner(of: BusName(unchecked: name))
            owners.lookupAnswered(name, owner: owner, ticket: ticket)
        } catch {
            unfollow(name)
            throw error
        }
    }

    /// One subscription stops following `name`; the last one removes the `NameOwnerChanged` rule.
    private func unfollow(_ name: String) {
        guard owners.release(name), isOpen else { return }
        try? callNoReply(destination: .bus, path: ObjectPath(unchecked: "/org/freedesktop/DBus"), interface: .bus,
                         member: "RemoveMatch",
                         arguments: [.string(MatchRule.nameOwnerChanged(BusName(unchecked: name)).description)])
    }
}
