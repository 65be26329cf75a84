import DBus
import TBRTestKit
import Testing

/// Opening, closing and releasing connections, with many of them coming and going at once.
@Suite struct ConnectionLifecycleTests {
    /// Connections that open while others close get the descriptor numbers just given up, often while
    /// a signal for the closing one is about to be handled; each must still be watched. (Before watches
    /// used descriptors of their own, such a number could stay unwatched and its replies unread until
    /// the call timed out.)
    @Test func connectionsOpenedWhileOthersCloseAreAnswered() async throws {
        try await withPrivateBus { bus in
            let noise = try await Connection(bus: .address(bus.address))
            let chatter = Task {
                while !Task.isCancelled {
                    try noise.emit(path: "/io/tbrd", interface: "io.tbrd.Noise1", member: "Tick")
                    try await Task.sleep(for: .microseconds(200))
                }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<40 {
                            let c = try await Connection(bus: .address(bus.address))
                            let ticks = try await c.signals(matching: MatchRule(interface: "io.tbrd.Noise1"))
                            let reply = try await c.call(
                                destination: .bus, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                member: "GetNameOwner", arguments: [.string(c.uniqueName)], timeout: .seconds(5))
                            #expect(reply == [.string(c.uniqueName)])
                            var it = ticks.makeAsyncIterator()
                            let tick = try await it.next()
                            #expect(tick?.member == "Tick")
                            await c.close()
                        }
                    }
                }
                try await group.waitForAll()
            }
            chatter.cancel()
            await noise.close()
        }
    }

    @Test func releasingAConnectionEndsItsStreamsAndLeavesTheBus() async throws {
        try await withPrivateBus { bus in
            let observer = try await Connection(bus: .address(bus.address))
            var connection: Connection? = try await Connection(bus: .address(bus.address))
            let name = connection!.uniqueName
            let stream = try await connection!.signals(matching: MatchRule(interface: "io.tbrd.Nothing1"))
            #expect(try await observer.listNames().contains(name))
            connection = nil
            await #expect {
                for try await _ in stream {}
            } throws: { error in
                (error as? DBusError)?.name == .disconnected
            }
            try await eventually("the released connection has left the bus") {
                try await !observer.listNames().contains(name)
            }
            await observer.close()
        }
    }

    @Test func releasingAConnectionCancelsItsMethodHandlers() async throws {
        let started = Box(false)
        let cancelled = Box(false)
        let waiting = Interface(Pair.interface, methods: [
            Method("Wait") { _ in
                await started.set(true)
                do {
                    try await Task.sleep(for: .seconds(30))
                } catch {
                    await cancelled.set(true)
                    throw error
                }
                return []
            },
        ])
        try await withPrivateBus { bus in
            var server: Connection? = try await Connection(bus: .address(bus.address))
            await server!.export([waiting], at: Pair.path)
            #expect(try await server!.requestName(Pair.name) == .primaryOwner)
            let client = try await Connection(bus: .address(bus.address))
            let call = Task {
                try await client.call(destination: Pair.name, path: Pair.path, interface: Pair.interface, member: "Wait")
            }
            try await eventually("the handler runs") { await started.value }
            server = nil
            try await eventually("the handler is cancelled") { await cancelled.value }
            // The bus answers for a peer that left without replying.
            await #expect {
                try await call.value
            } throws: { error in
                (error as? DBusError)?.name == .noReply
            }
            await client.close()
        }
    }

    /// A server that leaves the bus right after answering one call (otbr-sim playing a crash) waits for
    /// that call's reply only: its caller is answered, a call still being handled is not.
    @Test func aServerClosingAfterOneReplyDeliversThatReplyOnly() async throws {
        let waiting = Box(false)
        let holder = Box<Connection?>(nil)
        // What holds the long call until the connection closes and cancels it: nothing is ever yielded.
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let interface = Interface(Pair.interface, methods: [
            Method("Wait") { _ in
                await waiting.set(true)
                for await _ in held {}
                return []
            },
            Method("Leave", outputs: [Argument("bye", .string)]) { call in
                let server = await holder.value
                // The close runs in another task, as the simulator's crash does, once this reply is handed
                // over; this handler answers only after that task has started (without `replied(to:)` the
                // close would then usually win, and the caller get NoReply).
                let (closing, started) = AsyncStream.makeStream(of: Void.self)
                Task {
                    started.yield()
                    await server?.replied(to: call)
                    await server?.close()
                }
                for await _ in closing { break }
                return [.string("bye")]
            },
        ])
        try await withPrivateBus { bus in
            let server = try await Connection(bus: .address(bus.address))
            await holder.set(server)
            await server.export([interface], at: Pair.path)
            #expect(try await server.requestName(Pair.name) == .primaryOwner)
            let client = try await Connection(bus: .address(bus.address))
            let pending = Task {
                try await client.call(destination: Pair.name, path: Pair.path, interface: Pair.interface, member: "Wait")
            }
            try await eventually("the long call is being handled") { await waiting.value }
            let reply = try await client.call(destination: Pair.name, path: Pair.path, interface: Pair.interface, member: "Leave")
            #expect(reply == [.string("bye")])
            await #expect {
                try await pending.value
            } throws: { error in
                (error as? DBusError)?.name == .noReply
            }
            await client.close()
        }
        holding.finish()
    }

    @Test func aClosedConnectionRefusesWorkAtOnce() async throws {
        try await withPrivateBus { bus in
            let c = try await Connection(bus: .address(bus.address))
            await c.close()
            await c.close()
            #expect(await !c.isConnected)
            func isDisconnected(_ error: any Error) -> Bool { (error as? DBusError)?.name == .disconnected }
            #expect(performing: { try c.emit(path: "/io/tbrd", interface: "io.tbrd.Test1", member: "Tick") }, throws: isDisconnected)
            await #expect(performing: { try await c.listNames() }, throws: isDisconnected)
            await #expect(performing: { try await c.signals(matching: MatchRule(interface: "io.tbrd.Test1")) }, throws: isDisconnected)
        }
    }
}
