@testable import TBRDaemon
import TBRCoreServices
import TBRFoundation
import TBRTestKit
import Testing

/// The shutdown's wait for the calls in flight, on a manual clock: a TimeLimit on the gate.
@Suite struct CallGateTests {
    @Test func drainedReturnsOnceTheLastCallIsAnswered() async throws {
        let clock = ManualClock()
        let gate = CallGate()
        #expect(gate.enter())
        gate.close()
        #expect(!gate.enter(), "a closed gate admits nothing")
        let drained = Task { await gate.drained(within: .seconds(5), clock: clock) }
        try await eventually("the shutdown waits for the call", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        gate.leave()
        #expect(await drained.value)
    }

    @Test func drainedGivesUpWhenTheLimitPasses() async throws {
        let clock = ManualClock()
        let gate = CallGate()
        #expect(gate.enter())
        let start = clock.now()
        let drained = Task { await gate.drained(within: .seconds(5), clock: clock) }
        try await eventually("the shutdown waits for the call", wakingOn: clock.wakeups) { clock.sleepingUntil == [start.advanced(by: .seconds(5))] }
        clock.advance(by: .seconds(5))
        #expect(await !drained.value)
        #expect(gate.inFlight == 1)
    }

    @Test func drainedReturnsFalseWhenTheShutdownIsCancelled() async throws {
        let clock = ManualClock()
        let gate = CallGate()
        #expect(gate.enter())
        let drained = Task { await gate.drained(within: .seconds(5), clock: clock) }
        try await eventually("the shutdown waits for the call", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        drained.cancel()
        #expect(await !drained.value)
    }

    @Test func anIdleGateIsDrainedAtOnce() async {
        #expect(await CallGate().drained(within: .seconds(5), clock: ManualClock()))
    }
}
