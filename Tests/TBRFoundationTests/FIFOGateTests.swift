import TBRFoundation
import TBRTestKit
import Testing

/// The one FIFO gate: one holder at a time, turns in arrival order, a cancelled waiter leaves the line
/// without taking a turn, and one that ignores cancellation still gets its turn.
@Suite struct FIFOGateTests {
    /// Holds the gate until `release` opens, so that others line up behind it.
    private func holder(_ gate: FIFOGate, until release: Latch, log: Locked<[String]>) -> Task<Void, any Error> {
        Task {
            try await gate.withTurn {
                log.withLock { $0.append("holder") }
                await release.wait()
            }
        }
    }

    @Test func turnsGoInArrivalOrderOneAtATime() async throws {
        let gate = FIFOGate(), release = Latch(), log = Locked<[String]>([])
        let first = holder(gate, until: release, log: log)
        try await eventually("the holder has the turn") { log.withLock { $0 == ["holder"] } }
        var waiters: [Task<Void, any Error>] = []
        for name in ["a", "b", "c"] {
            waiters.append(Task {
                try await gate.withTurn {
                    log.withLock { $0.append(name) }
                    // A second holder at once would interleave its entry with this one's.
                    await Task.yield()
                    log.withLock { $0.append(name + ".") }
                }
            })
            let count = waiters.count
            try await eventually("\(name) waits in line") { gate.waitingCount == count }
        }
        release.open()
        try await first.value
        for waiter in waiters { try await waiter.value }
        #expect(log.withLock { $0 } == ["holder", "a", "a.", "b", "b.", "c", "c."])
        #expect(gate.waitingCount == 0)
    }

    @Test func aCancelledWaiterLeavesTheLineAndTheNextGetsTheTurn() async throws {
        let gate = FIFOGate(), release = Latch(), log = Locked<[String]>([])
        let first = holder(gate, until: release, log: log)
        try await eventually("the holder has the turn") { log.withLock { $0 == ["holder"] } }
        let cancelled = Task { try await gate.withTurn { log.withLock { $0.append("cancelled") } } }
        try await eventually("it waits") { gate.waitingCount == 1 }
        let next = Task { try await gate.withTurn { log.withLock { $0.append("next") } } }
        try await eventually("both wait") { gate.waitingCount == 2 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(gate.waitingCount == 1, "the cancelled waiter left the line")
        release.open()
        try await first.value
        try await next.value
        #expect(log.withLock { $0 } == ["holder", "next"])
    }

    @Test func aWaiterThatIgnoresCancellationStillGetsItsTurn() async throws {
        let gate = FIFOGate(), release = Latch(), log = Locked<[String]>([])
        let first = holder(gate, until: release, log: log)
        try await eventually("the holder has the turn") { log.withLock { $0 == ["holder"] } }
        let insistent = Task { await gate.withTurnIgnoringCancellation { log.withLock { $0.append("insistent") } } }
        try await eventually("it waits") { gate.waitingCount == 1 }
        insistent.cancel()
        release.open()
        try await first.value
        await insistent.value
        #expect(log.withLock { $0 } == ["holder", "insistent"])
    }

    @Test func aThrowingBodyHandsTheTurnOn() async throws {
        struct Broke: Error {}
        let gate = FIFOGate()
        await #expect(throws: Broke.self) { try await gate.withTurn { throw Broke() } }
        #expect(try await gate.withTurn { "free again" } == "free again")
    }
}

/// The one latch: opens after its count, or when opened; waiters before and after.
@Suite struct LatchTests {
    @Test func opensAfterItsCountAndStaysOpen() async throws {
        let latch = Latch(count: 2)
        let waiting = Task { await latch.wait() }
        latch.countDown()
        #expect(!latch.isOpen)
        latch.countDown()
        #expect(latch.isOpen)
        await waiting.value
        await latch.wait()  // at once, once open
        latch.countDown()
        #expect(latch.isOpen, "more count-downs change nothing")
    }

    @Test func openWakesEveryWaiterAndACancelledOneWaitsOn() async throws {
        let latch = Latch(count: 5), woke = Locked(0)
        let waiters = (0..<3).map { _ in Task { await latch.wait(); woke.withLock { $0 += 1 } } }
        waiters[0].cancel()
        latch.open()
        for waiter in waiters { await waiter.value }
        #expect(woke.withLock { $0 } == 3)
    }
}
