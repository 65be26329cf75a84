@testable import DBus
import TBRTestKit
import Testing

/// ``BlockingConnection`` against a real private bus and an exporting ``Connection``: each call runs on
/// a thread of its own, as in a process that makes one call and exits, and ends as a ``Connection``'s
/// call of the same method ends.
@Suite struct BlockingConnectionTests {
    typealias Outcome = Result<[DBusValue], DBusError>

    /// `failing`, plus a method that fails with no text (as otbr-agent's errors come).
    static let interface = Interface(Pair.interface, methods: CallTests.failing.methods + [
        Method("Quiet") { _ in throw DBusError(ErrorName("io.openthread.Error.Busy")) }
    ])

    /// Calls `member` of the test object (or `path` of `destination`) on `connection`.
    static func outcome(
        _ connection: BlockingConnection, _ member: MemberName, _ arguments: [DBusValue] = [],
        destination: BusName = Pair.name, path: ObjectPath = Pair.path, timeout: Duration = Connection.defaultTimeout
    ) -> Outcome {
        Result { () throws(DBusError) in
            try connection.call(
                destination: destination, path: path, interface: Pair.interface, member: member, arguments: arguments,
                timeout: timeout)
        }
    }

    @Test func repliesAndErrorRepliesAreWhatAConnectionGets() async throws {
        try await withPair([Self.interface]) { pair in
            let address = pair.bus.address
            let blocking = try await onThreadOfItsOwn { () throws -> [Outcome] in
                let connection = try BlockingConnection(bus: .address(address))
                defer { connection.close() }
                return [
                    Self.outcome(connection, "Add", [.int32(2), .int32(3)]),
                    Self.outcome(connection, "Fail", [.string("io.openthread.Error.Busy")]),
                    Self.outcome(connection, "Quiet"),
                    Self.outcome(connection, "Nope"),
                    Self.outcome(connection, "Add", [.int32(1), .int32(2)], path: "/nothing/here"),
                    Self.outcome(connection, "Add", [.int32(1), .int32(2)], destination: "io.tbrd.Nobody"),
                ]
            }
            var async: [Outcome] = []
            for (member, arguments, destination, path) in [
                ("Add", [DBusValue.int32(2), .int32(3)], Pair.name, Pair.path), ("Fail", [.string("io.openthread.Error.Busy")], Pair.name, Pair.path),
                ("Quiet", [], Pair.name, Pair.path), ("Nope", [], Pair.name, Pair.path),
                ("Add", [.int32(1), .int32(2)], Pair.name, "/nothing/here"), ("Add", [.int32(1), .int32(2)], "io.tbrd.Nobody", Pair.path),
            ] as [(MemberName, [DBusValue], BusName, ObjectPath)] {
                do {
                    async.append(.success(try await pair.client.call(
                        destination: destination, path: path, interface: Pair.interface, member: member, arguments: arguments)))
                } catch let error as DBusError {
                    async.append(.failure(error))
                }
            }
            #expect(blocking == async)
            #expect(blocking[0] == .success([.int32(5)]))
            #expect(blocking[1] == .failure(DBusError(ErrorName("io.openthread.Error.Busy"), "it failed on purpose")))
            #expect(blocking[2] == .failure(DBusError(ErrorName("io.openthread.Error.Busy"), "")), "no stock text added")
            #expect(blocking[3..<6].map { (try? $0.get()) == nil } == [true, true, true])
        }
    }

    @Test func aTimeoutIsNoReplyAndAClosedConnectionIsDisconnected() async throws {
        let held = HeldCalls()
        try await withPair(CallTests.interfaces(held)) { pair in
            let address = pair.bus.address
            let (late, afterLate, closed) = try await onThreadOfItsOwn { () throws -> (Outcome, Outcome, Outcome) in
                let connection = try BlockingConnection(bus: .address(address))
                let late = Self.outcome(connection, "Hold", timeout: .milliseconds(200))
                // The held call is still unanswered; the next call gets its own reply, not that one's.
                let afterLate = Self.outcome(connection, "Add", [.int32(2), .int32(3)])
                connection.close()
                return (late, afterLate, Self.outcome(connection, "Add", [.int32(1), .int32(1)]))
            }
            #expect(late == .failure(DBusError(.noReply, "no reply before the call's timeout")))
            #expect(!held.isReleased, "the call ended on its timeout, not on an answer")
            #expect(afterLate == .success([.int32(5)]))
            #expect((try? closed.get()) == nil && closed.failureName == .disconnected)
            held.release()
        }
    }

    @Test func theBusGoingAwayMidCallEndsTheCall() async throws {
        let held = HeldCalls()
        try await withPair(CallTests.interfaces(held)) { pair in
            let address = pair.bus.address
            async let outcome = onThreadOfItsOwn { () throws -> Outcome in
                let connection = try BlockingConnection(bus: .address(address))
                return Self.outcome(connection, "Hold", timeout: .seconds(3600))
            }
            try await eventually("the call is in the server's hands") { held.started == 1 }
            pair.bus.stop()
            let ended = try await outcome
            #expect(ended.failureName == .disconnected, "\(ended)")
            #expect(!held.isReleased)
            held.release()
        }
    }

    @Test func aBusThatCannotBeReachedIsNamed() async throws {
        let address = "unix:path=/nonexistent/tbrd-test-bus"
        let error = try await onThreadOfItsOwn { () -> DBusError? in
            do throws(DBusError) { _ = try BlockingConnection(bus: .address(address)) } catch { return error }
            return nil
        }
        #expect(error?.message.hasPrefix("cannot connect to the \(address) bus: ") == true, "\(String(describing: error))")
    }

    @Test func timeoutsBecomeLibDBusMilliseconds() {
        #expect(BlockingConnection.milliseconds(.milliseconds(200)) == 200)
        #expect(BlockingConnection.milliseconds(.seconds(25)) == 25_000)
        #expect(BlockingConnection.milliseconds(.microseconds(1500)) == 1)
        #expect(BlockingConnection.milliseconds(.seconds(-1)) == 0)
        #expect(BlockingConnection.milliseconds(.seconds(Int64.max)) == Int32.max)
    }
}

extension Result where Failure == DBusError {
    /// The error name, if this is a failure.
    var failureName: ErrorName? {
        if case .failure(let error) = self { error.name } else { nil }
    }
}
