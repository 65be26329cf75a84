import TBRFoundation
import TBRTestKit
import Testing

/// The one timer driver, on a manual clock: a due instant fires once, moving it earlier or later moves
/// the wake-up, clearing it leaves the driver without one, and cancelling the driver ends it.
@Suite struct AlarmTests {
    /// An alarm on a manual clock, its driver, and the instants it fired at.
    final class Rig: Sendable {
        let clock = ManualClock()
        let alarm: Alarm
        let fired = Locked<[ContinuousClock.Instant]>([])
        let start: ContinuousClock.Instant
        let driver: Task<Void, Never>

        init() {
            let clock = self.clock
            let alarm = Alarm(clock: clock)
            let fired = self.fired
            self.alarm = alarm
            start = clock.now()
            driver = Task { await alarm.run { fired.withLock { $0.append(clock.now()) } } }
        }

        deinit { driver.cancel() }

        func at(_ seconds: Int64) -> ContinuousClock.Instant { start.advanced(by: .seconds(seconds)) }
        var firings: [ContinuousClock.Instant] { fired.withLock { $0 } }

        /// Waits until the driver sleeps until exactly `instants` (none: it waits without a timer).
        func sleeping(until instants: [ContinuousClock.Instant]) async throws {
            try await eventually("the driver sleeps until \(instants)", wakingOn: clock.wakeups) { clock.sleepingUntil == instants }
        }
    }

    @Test func aDueInstantFiresOnceAndIsCleared() async throws {
        let rig = Rig()
        rig.alarm.set(rig.at(5))
        try await rig.sleeping(until: [rig.at(5)])
        rig.clock.advance(by: .seconds(4))
        #expect(rig.firings.isEmpty && rig.clock.sleeperCount == 1, "4 s in, nothing is due and the driver still sleeps")
        rig.clock.advance(by: .seconds(1))
        try await eventually("it fired") { rig.firings == [rig.at(5)] }
        #expect(rig.alarm.instant == nil)
        try await rig.sleeping(until: [])
        // Only a new instant fires again; the one that fired does not.
        rig.alarm.set(rig.at(7))
        try await rig.sleeping(until: [rig.at(7)])
        rig.clock.advance(by: .seconds(2))
        try await eventually("it fired again") { rig.firings == [rig.at(5), rig.at(7)] }
    }

    @Test func anEarlierInstantMovesTheWakeUpForward() async throws {
        let rig = Rig()
        rig.alarm.set(rig.at(10))
        try await rig.sleeping(until: [rig.at(10)])
        rig.alarm.set(rig.at(3))
        try await rig.sleeping(until: [rig.at(3)])
        rig.clock.advance(by: .seconds(3))
        try await eventually("it fired at the earlier instant") { rig.firings == [rig.at(3)] }
        try await rig.sleeping(until: [])
    }

    @Test func aLaterInstantPutsTheWakeUpOff() async throws {
        let rig = Rig()
        rig.alarm.set(rig.at(3))
        try await rig.sleeping(until: [rig.at(3)])
        rig.alarm.set(rig.at(10))
        try await rig.sleeping(until: [rig.at(10)])
        rig.clock.advance(by: .seconds(3))
        #expect(rig.firings.isEmpty && rig.clock.sleepingUntil == [rig.at(10)], "the earlier instant no longer counts")
        rig.clock.advance(by: .seconds(7))
        try await eventually("it fired at the later instant") { rig.firings == [rig.at(10)] }
    }

    @Test func aClearedInstantNeverFires() async throws {
        let rig = Rig()
        rig.alarm.set(rig.at(3))
        try await rig.sleeping(until: [rig.at(3)])
        rig.alarm.cancel()
        try await rig.sleeping(until: [])
        rig.clock.advance(by: .seconds(10))
        // The driver waits without a timer; the next instant set is the next to fire.
        rig.alarm.set(rig.at(12))
        try await rig.sleeping(until: [rig.at(12)])
        rig.clock.advance(by: .seconds(2))
        try await eventually("only the instant set afterwards fired") { rig.firings == [rig.at(12)] }
    }

    @Test func anInstantAlreadyPastFiresAtOnce() async throws {
        let rig = Rig()
        rig.clock.advance(by: .seconds(5))
        rig.alarm.set(rig.at(1))
        try await eventually("it fired") { rig.firings == [rig.at(5)] }
    }

    @Test func cancellingTheDriverEndsItWithoutFiring() async throws {
        let clock = ManualClock()
        let alarm = Alarm(clock: clock)
        let fired = Locked(0)
        let driver = Task { await alarm.run { fired.withLock { $0 += 1 } } }
        alarm.set(clock.now().advanced(by: .seconds(5)))
        try await eventually("the driver sleeps", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        driver.cancel()
        await driver.value
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(5))
        #expect(fired.withLock { $0 } == 0)
    }
}
