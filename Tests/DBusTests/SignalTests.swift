import DBus
import TBRTestKit
import Testing

@Suite struct SignalTests {
    static let member: MemberName = "Tick"

    /// The number of match rules the bus holds for `connection` (dbus-daemon's Debug.Stats interface).
    static func matchRules(of connection: Connection, asking observer: Connection) async throws -> UInt32 {
        let reply = try await observer.call(
            destination: .bus, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus.Debug.Stats",
            member: "GetConnectionStats", arguments: [.string(connection.uniqueName)])
        let stats = try reply[0].decode(as: [String: DBusValue].self)
        return try stats["MatchRules"]!.decode(as: UInt32.self)
    }

    @Test func signalsArriveInOrder() async throws {
        try await withPair([]) { pair in
            let stream = try await pair.client.signals(matching: MatchRule(sender: Pair.name, interface: Pair.interface, member: Self.member))
            for i in UInt32(0)..<500 {
                try pair.server.emit(path: Pair.path, interface: Pair.interface, member: Self.member, arguments: [.uint32(i)])
            }
            var seen: [UInt32] = []
            for try await s in stream {
                seen.append(try s.arguments[0].decode(as: UInt32.self))
                #expect(s.path == Pair.path)
                #expect(s.sender == pair.server.uniqueName)
                if seen.count == 500 { break }
            }
            #expect(seen == Array(0..<500))
            #expect(stream.droppedCount == 0)
        }
    }

    @Test func cancellingASubscriptionRemovesItsMatchRule() async throws {
        try await withPair([]) { pair in
            let observer = try await Connection(bus: .address(pair.bus.address))
            let before = try await Self.matchRules(of: pair.client, asking: observer)
            let rule = MatchRule(path: Pair.path, interface: Pair.interface, member: Self.member)
            let delivered = Box(0)
            let subscribed = Box(false)
            let consumer = Task {
                let stream = try await pair.client.signals(matching: rule)
                await subscribed.set(true)
                for try await _ in stream { await delivered.set(await delivered.value + 1) }
            }
            // Once signals(matching:) has returned, the rule is on the bus; then prove delivery works.
            try await eventually("the consumer subscribed", timeout: .seconds(20)) { await subscribed.value }
            let during = try await Self.matchRules(of: pair.client, asking: observer)
            #expect(during == before + 1)
            try pair.server.emit(path: Pair.path, interface: Pair.interface, member: Self.member)
            try await eventually("the signal was delivered", timeout: .seconds(20)) { await delivered.value == 1 }

            consumer.cancel()
            _ = await consumer.result
            try await eventually("the match rule was removed", timeout: .seconds(20)) {
                try await Self.matchRules(of: pair.client, asking: observer) == before
            }
            // Signals sent after cancellation reach nobody. A marker sent after one, to a subscription of
            // its own, arrives after it (the bus keeps one sender's order): by then it has been dropped.
            let marker = try await pair.client.signals(matching: MatchRule(path: Pair.path, interface: Pair.interface, member: "Marker"))
            try pair.server.emit(path: Pair.path, interface: Pair.interface, member: Self.member)
            try pair.server.emit(path: Pair.path, interface: Pair.interface, member: "Marker")
            for try await _ in marker { break }
            #expect(await delivered.value == 1)
            await observer.close()
        }
    }

    @Test func droppingAStreamRemovesItsMatchRule() async throws {
        try await withPair([]) { pair in
            let observer = try await Connection(bus: .address(pair.bus.address))
            let before = try await Self.matchRules(of: pair.client, asking: observer)
            do {
                let stream = try await pair.client.signals(matching: MatchRule(interface: Pair.interface))
                #expect(try await Self.matchRules(of: pair.client, asking: observer) == before + 1)
                _ = stream
            }
            try await eventually("the match rule was removed", timeout: .seconds(20)) {
                try await Self.matchRules(of: pair.client, asking: observer) == before
            }
            await observer.close()
        }
    }

    @Test func wellKnownSenderFollowsItsOwnerAndIgnoresImpostors() async throws {
        try await withPair([]) { pair in
            let impostor = try await Connection(bus: .address(pair.bus.address))
            let stream = try await pair.client.signals(matching: MatchRule(sender: Pair.name, interface: Pair.interface))
            try impostor.emit(path: Pair.path, interface: Pair.interface, member: Self.member, arguments: [.string("impostor")])
            try pair.server.emit(path: Pair.path, interface: Pair.interface, member: Self.member, arguments: [.string("owner")])
            // The name moves to another connection: its signals now count.
            let released = try await pair.client.nameOwnerChanges(of: Pair.name)
            await pair.server.close()
            for try await change in released where change.newOwner == nil { break }
            #expect(try await impostor.requestName(Pair.name) == .primaryOwner)
            try impostor.emit(path: Pair.path, interface: Pair.interface, member: Self.member, arguments: [.string("new owner")])
            var got: [String] = []
            for try await s in stream {
                got.append(try s.arguments[0].decode(as: String.self))
                if got.count == 2 { break }
            }
            #expect(got == ["owner", "new owner"])
            await impostor.close()
        }
    }

    /// A live owner that gives up the name is no longer followed: its signals, which the bus still
    /// delivers for another rule, do not reach the subscription until it owns the name again.
    @Test func aNameGivenUpByALiveOwnerIsNoLongerFollowed() async throws {
        try await withPair([]) { pair in
            let followed = try await pair.client.signals(matching: MatchRule(sender: Pair.name, interface: Pair.interface))
            let everything = try await pair.client.signals(matching: MatchRule(interface: Pair.interface))
            var changes = try await pair.client.nameOwnerChanges(of: Pair.name).makeAsyncIterator()
            #expect(try await pair.server.releaseName(Pair.name))
            let released = try await changes.next()
            #expect(released?.newOwner == nil)
            try pair.server.emit(path: Pair.path, interface: Pair.interface, member: Self.member, arguments: [.string("not the owner")])
            #expect(try await pair.server.requestName(Pair.name) == .primaryOwner)
            let regained = try await changes.next()
            #expect(regained?.newOwner == pair.server.uniqueName)
            try pair.server.emit(path: Pair.path, interface: Pair.interface, member: Self.member, arguments: [.string("owner again")])

            var all = everything.makeAsyncIterator()
            let first = try await all.next(), second = try await all.next()
            #expect(first?.arguments == [.string("not the owner")])
            #expect(second?.arguments == [.string("owner again")])
            var onlyOwner = followed.makeAsyncIterator()
            let fromOwner = try await onlyOwner.next()
            #expect(fromOwner?.arguments == [.string("owner again")])
        }
    }

    /// Subscriptions to one well-known sender started at once share one `NameOwnerChanged` rule, and
    /// each knows the owner when it returns.
    @Test func concurrentSubscriptionsToOneSenderEachKnowItsOwner() async throws {
        try await withPair([]) { pair in
            let observer = try await Connection(bus: .address(pair.bus.address))
            let before = try await Self.matchRules(of: pair.client, asking: observer)
            let client = pair.client
            let rule = MatchRule(sender: Pair.name, interface: Pair.interface, member: Self.member)
            let streams = try await withThrowingTaskGroup(of: SignalStream.self) { group in
                for _ in 0..<8 { group.addTask { try await client.signals(matching: rule) } }
                var all: [SignalStream] = []
                for try await stream in group { all.append(stream) }
                return all
            }
            // Eight rules of the subscriptions and one NameOwnerChanged rule they share.
            #expect(try await Self.matchRules(of: pair.client, asking: observer) == before + 9)
            try pair.server.emit(path: Pair.path, interface: Pair.interface, member: Self.member, arguments: [.uint32(7)])
            for stream in streams {
                var it = stream.makeAsyncIterator()
                let signal = try await it.next()
                #expect(signal?.arguments == [.uint32(7)])
            }
            await observer.close()
        }
    }

    @Test func slowConsumersDropAndCountBeyondTheBuffer() async throws {
        try await withPair([]) { pair in
            let stream = try await pair.client.signals(matching: MatchRule(interface: Pair.interface), bufferLimit: 10)
            for i in UInt32(0)..<50 {
                try pair.server.emit(path: Pair.path, interface: Pair.interface, member: Self.member, arguments: [.uint32(i)])
            }
            // Nobody consumes yet: once all 50 have arrived, 10 wait in the buffer and 40 were dropped.
            try await eventually("all 50 signals arrived", timeout: .seconds(20)) { stream.droppedCount >= 40 }
            #expect(stream.droppedCount == 40)
            var first: [UInt32] = []
            for try await s in stream {
                first.append(try s.arguments[0].decode(as: UInt32.self))
                if first.count == 10 { break }
            }
            #expect(first == Array(0..<10))
            #expect(stream.droppedCount == 40)
        }
    }
}
