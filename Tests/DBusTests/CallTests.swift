import DBus
import TBRFoundation
import TBRTestKit
import Testing

/// Calls the test holds open on the server side: `Hold` starts, says so, and answers only when the
/// test releases it, so a test can act while a call is surely in flight and prove that the client did
/// not wait for the answer, without sleeping.
final class HeldCalls: Sendable {
    private struct State {
        var started = 0
        var released = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    /// How many `Hold` calls have started.
    var started: Int { state.withLock { $0.started } }
    /// Whether the test let them answer.
    var isReleased: Bool { state.withLock { $0.released } }

    /// Lets every held call (and every later one) answer.
    func release() {
        let waiting = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.released = true
            defer { s.waiting = [] }
            return s.waiting
        }
        for c in waiting { c.resume() }
    }

    fileprivate func hold() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                s.started += 1
                if s.released { return true }
                s.waiting.append(c)
                return false
            }
            if now { c.resume() }
        }
    }

    /// `Hold() → (b answered)`.
    var method: Method { Method("Hold", outputs: [Argument("answered", .boolean)]) { [self] _ in
        await hold()
        return [.bool(true)]
    } }
}

@Suite struct CallTests {
    static let failing: Interface = Interface(Pair.interface, methods: [
        Method("Fail", inputs: [Argument("name", .string)]) { call in
            let name: String = try call.argument(0)
            throw DBusError(try ErrorName(name), "it failed on purpose")
        },
        Method("Crash") { _ in
            struct Oops: Error, CustomStringConvertible { var description: String { "something broke" } }
            throw Oops()
        },
        Method("Add", inputs: [Argument("a", .int32), Argument("b", .int32)], outputs: [Argument("sum", .int32)]) { call in
            let a: Int32 = try call.argument(0)
            let b: Int32 = try call.argument(1)
            return [.int32(a &+ b)]
        },
    ])

    @Test func errorRepliesKeepNameAndMessage() async throws {
        try await withPair([Self.failing]) { pair in
            await #expect(throws: DBusError(ErrorName("io.openthread.Error.Busy"), "it failed on purpose")) {
                try await pair.remote.call("Fail", [.string("io.openthread.Error.Busy")])
            }
            await #expect(throws: DBusError(.failed, "something broke")) { try await pair.remote.call("Crash") }
        }
    }

    @Test func unknownMethodsObjectsAndBadArgumentsGetStandardErrors() async throws {
        try await withPair([Self.failing]) { pair in
            func name(_ body: () async throws -> Void) async -> ErrorName? {
                do { try await body() } catch let e as DBusError { return e.name } catch { return nil }
                return nil
            }
            #expect(await name { _ = try await pair.remote.call("Nope") } == .unknownMethod)
            #expect(await name { _ = try await pair.remote.call("Add", [.string("x")]) } == .invalidArgs)
            #expect(await name { _ = try await pair.remote.call("Add", [.int32(1)]) } == .invalidArgs)
            let elsewhere = RemoteObject(connection: pair.client, destination: Pair.name, path: "/nothing/here", interface: Pair.interface)
            #expect(await name { _ = try await elsewhere.call("Add", [.int32(1), .int32(2)]) } == .unknownObject)
            let nobody = RemoteObject(connection: pair.client, destination: "io.tbrd.Nobody", path: Pair.path, interface: Pair.interface)
            #expect(await name { _ = try await nobody.call("Add", [.int32(1), .int32(2)]) } == .serviceUnknown)
            let r1 = try await pair.remote.call("Add", [.int32(.max), .int32(1)])
            #expect(r1 == [.int32(.min)])
        }
    }

    /// `failing` with the test's held calls.
    static func interfaces(_ held: HeldCalls) -> [Interface] {
        [Interface(Pair.interface, methods: failing.methods + [held.method])]
    }

    @Test func timeoutGivesNoReplyAndLateReplyIsIgnored() async throws {
        let held = HeldCalls()
        try await withPair(Self.interfaces(held)) { pair in
            let start = ContinuousClock.now
            await #expect {
                try await pair.remote.call("Hold", timeout: .milliseconds(200))
            } throws: { error in
                (error as? DBusError)?.name == .noReply
            }
            #expect(ContinuousClock.now - start >= .milliseconds(200))
            #expect(!held.isReleased, "the call ended on its timeout, not on an answer")
            // The late answer: the server answers in the order calls arrived, so it reaches the client
            // before the answer to the next call, which must be that call's own.
            held.release()
            let r2 = try await pair.remote.call("Add", [.int32(2), .int32(3)])
            #expect(r2 == [.int32(5)])
        }
    }

    @Test func cancellingTheTaskCancelsTheCall() async throws {
        let held = HeldCalls()
        try await withPair(Self.interfaces(held)) { pair in
            let remote = pair.remote
            let task = Task { try await remote.call("Hold") }
            try await eventually("the call is in the server's hands") { held.started == 1 }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(!held.isReleased, "cancelled without waiting for the answer")
            held.release()
        }
    }

    @Test func thousandConcurrentCallsAreAllAnsweredCorrectly() async throws {
        try await withPair([Self.failing]) { pair in
            let remote = pair.remote
            let results = try await withThrowingTaskGroup(of: (Int32, [DBusValue]).self) { group in
                for i in Int32(0)..<1000 {
                    group.addTask { (i, try await remote.call("Add", [.int32(i), .int32(i * 2)])) }
                }
                var all: [(Int32, [DBusValue])] = []
                for try await r in group { all.append(r) }
                return all
            }
            #expect(results.count == 1000)
            for (i, reply) in results { #expect(reply == [.int32(i * 3)]) }
        }
    }

    @Test func peerVanishingMidCallFailsTheCallWithoutHanging() async throws {
        let held = HeldCalls()
        try await withPair(Self.interfaces(held)) { pair in
            let remote = pair.remote
            let task = Task { try await remote.call("Hold", timeout: .seconds(3600)) }
            try await eventually("the call is in the server's hands") { held.started == 1 }
            await pair.server.close()
            await #expect {
                try await task.value
            } throws: { error in
                (error as? DBusError)?.name == .noReply
            }
            #expect(!held.isReleased, "failed when the peer left, not at the call's timeout")
            held.release()
            // The client connection survives and keeps working.
            let r3 = try await pair.client.listNames()
            #expect(r3.contains(pair.client.uniqueName))
        }
    }

    @Test func closingTheConnectionFailsOutstandingCalls() async throws {
        let held = HeldCalls()
        try await withPair(Self.interfaces(held)) { pair in
            let remote = pair.remote
            let task = Task { try await remote.call("Hold") }
            try await eventually("the call is in the server's hands") { held.started == 1 }
            await pair.client.close()
            await #expect {
                try await task.value
            } throws: { error in
                (error as? DBusError)?.name == .disconnected
            }
            await #expect(throws: DBusError.self) { try await remote.call("Add", [.int32(1), .int32(1)]) }
            held.release()
        }
    }

    @Test func busDaemonDyingDisconnectsCleanly() async throws {
        let bus = try await PrivateBus.start()
        let c = try await Connection(bus: .address(bus.address))
        let stream = try await c.signals(matching: MatchRule(interface: "io.tbrd.Nothing1"))
        bus.stop()
        var ended = false
        do {
            for try await _ in stream {}
        } catch let e as DBusError {
            ended = e.name == .disconnected
        }
        #expect(ended)
        #expect(await !c.isConnected)
    }

    @Test func callsInOrderLeaveInOrderAndEachGetsItsOwnOutcome() async throws {
        actor Arrivals {
            var seen: [(String, UInt32)] = []
            func add(_ member: String, _ serial: UInt32) { seen.append((member, serial)) }
            func clear() { seen = [] }
        }
        let arrivals = Arrivals()
        let recording = Interface(Pair.interface, methods: [
            Method("Add", inputs: [Argument("a", .int32), Argument("b", .int32)], outputs: [Argument("sum", .int32)]) { call in
                await arrivals.add("Add", call.message.serial)
                let a: Int32 = try call.argument(0)
                let b: Int32 = try call.argument(1)
                return [.int32(a &+ b)]
            },
            Method("Fail") { call in
                await arrivals.add("Fail", call.message.serial)
                throw DBusError(ErrorName("io.openthread.Error.Busy"), "busy on purpose")
            },
        ])
        try await withPair([recording]) { pair in
            func call(_ member: MemberName, _ arguments: [DBusValue] = []) -> OutgoingCall {
                OutgoingCall(destination: Pair.name, path: Pair.path, interface: Pair.interface, member: member, arguments: arguments)
            }
            for _ in 0..<20 {
                await arrivals.clear()
                let results = try await pair.client.callInOrder([
                    call("Add", [.int32(1), .int32(2)]), call("Fail"), call("Add", [.int32(3), .int32(4)]), call("Nope"),
                ])
                #expect(results.count == 4)
                #expect(try results[0].get() == [.int32(3)])
                #expect(throws: DBusError(ErrorName("io.openthread.Error.Busy"), "busy on purpose")) { try results[1].get() }
                #expect(try results[2].get() == [.int32(7)])
                #expect((try? results[3].get()) == nil, "an unknown method fails on its own")
                // Sent in the order given: the serials the server saw rise with the position.
                let seen = await arrivals.seen.sorted { $0.1 < $1.1 }.map(\.0)
                #expect(seen == ["Add", "Fail", "Add"])
            }
            // A single call and an empty list work too.
            #expect(try await pair.client.callInOrder([call("Add", [.int32(2), .int32(2)])]).first?.get() == [.int32(4)])
            #expect(try await pair.client.callInOrder([]).isEmpty)
        }
    }
}
