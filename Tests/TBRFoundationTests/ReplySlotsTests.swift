import TBRFoundation
import TBRTestKit
import Testing

/// The one one-shot reply slot: an answer before or after the wait, cancellation both ways, failing
/// every slot, and never a second resume.
@Suite struct ReplySlotsTests {
    struct Lost: Error, Equatable {}

    @Test func anAnswerBeforeTheWaitIsKeptForIt() async throws {
        let slots = ReplySlots<Int, String>()
        slots.expect(1)
        #expect(slots.deliver(.success("one"), to: 1))
        #expect(try await slots.wait(for: 1) == "one")
        #expect(slots.isEmpty, "the wait closes the slot")
    }

    @Test func aWaitIsResumedByTheAnswer() async throws {
        let slots = ReplySlots<Int, String>()
        slots.expect(1)
        let waiting = Task { try await slots.wait(for: 1) }
        try await eventually("the task waits") { slots.isAwaited(1) }
        #expect(slots.deliver(.success("one"), to: 1))
        #expect(try await waiting.value == "one")
        #expect(slots.isEmpty)
    }

    @Test func anErrorDeliveredIsThrownByTheWait() async throws {
        let slots = ReplySlots<Int, String>()
        slots.expect(1)
        slots.deliver(.failure(Lost()), to: 1)
        await #expect(throws: Lost.self) { try await slots.wait(for: 1) }
    }

    @Test func anAnswerNobodyExpectsIsRefused() async throws {
        let slots = ReplySlots<Int, String>()
        #expect(!slots.deliver(.success("stray"), to: 9))
        #expect(slots.isEmpty)
        await #expect(throws: CancellationError.self) { try await slots.wait(for: 9) }
    }

    @Test func aSlotIsAnsweredOnce() async throws {
        let slots = ReplySlots<Int, String>()
        slots.expect(1)
        #expect(slots.deliver(.success("first"), to: 1))
        #expect(!slots.deliver(.success("second"), to: 1), "a second answer is refused")
        #expect(try await slots.wait(for: 1) == "first")
        #expect(!slots.deliver(.success("late"), to: 1), "nothing waits any more")
    }

    @Test func aCancelledWaiterClosesItsSlotAndALaterAnswerIsDropped() async throws {
        let slots = ReplySlots<Int, String>()
        slots.expect(1)
        let waiting = Task { try await slots.wait(for: 1) }
        try await eventually("the task waits") { slots.isAwaited(1) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(slots.isEmpty)
        #expect(!slots.deliver(.success("late"), to: 1))
    }

    @Test func aTaskCancelledBeforeItWaitsGetsCancellationErrorNotAHang() async throws {
        let slots = ReplySlots<Int, String>()
        slots.expect(1)
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await slots.wait(for: 1)
        }
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(slots.isEmpty)
    }

    @Test func cancellingASlotEndsItsWait() async throws {
        let slots = ReplySlots<Int, String>()
        slots.expect(1)
        slots.expect(2)
        let waiting = Task { try await slots.wait(for: 1) }
        try await eventually("the task waits") { slots.isAwaited(1) }
        #expect(slots.cancel(1))
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(!slots.cancel(1))
        #expect(slots.cancel(2), "a slot nobody waited on closes too")
        #expect(slots.isEmpty)
    }

    @Test func failAllFailsWaitersNowAndLaterWaitsWhenTheyCome() async throws {
        let slots = ReplySlots<Int, String>()
        for key in 1...3 { slots.expect(key) }
        slots.deliver(.success("three"), to: 3)
        let waiting = Task { try await slots.wait(for: 1) }
        try await eventually("the task waits") { slots.isAwaited(1) }
        slots.failAll(Lost())
        await #expect(throws: Lost.self) { try await waiting.value }
        await #expect(throws: Lost.self) { try await slots.wait(for: 2) }
        #expect(try await slots.wait(for: 3) == "three", "a slot answered before keeps its answer")
        #expect(slots.isEmpty)
    }

    @Test func deliverAllAnswersEveryWaiterOnce() async throws {
        let slots = ReplySlots<Int, String>()
        for key in 1...20 { slots.expect(key) }
        let waiters = (1...10).map { key in Task { try await slots.wait(for: key) } }
        try await eventually("ten tasks wait") { (1...10).allSatisfy(slots.isAwaited) }
        slots.deliverAll(.success("connected"))
        for waiter in waiters { #expect(try await waiter.value == "connected") }
        for key in 11...20 { #expect(try await slots.wait(for: key) == "connected", "a slot not yet waited on keeps it") }
        #expect(slots.isEmpty)
    }

    /// Answers, cancellations and waits racing from many tasks: every waiter ends exactly once (a
    /// second resume of a checked continuation would trap).
    @Test func racesResumeEachWaiterOnce() async throws {
        let slots = ReplySlots<Int, Int>()
        let count = 2000
        for key in 0..<count { slots.expect(key) }
        let results = await withTaskGroup(of: Int?.self) { group in
            for key in 0..<count {
                group.addTask {
                    let waiting = Task { try await slots.wait(for: key) }
                    async let answer: Void = { slots.deliver(.success(key), to: key) }()
                    if key % 3 == 0 { waiting.cancel() }
                    if key % 5 == 0 { slots.cancel(key) }
                    await answer
                    return try? await waiting.value
                }
            }
            var values: [Int] = []
            for await value in group { if let value { values.append(value) } }
            return values
        }
        #expect(Set(results).count == results.count)
        #expect(results.allSatisfy { (0..<count).contains($0) })
        #expect(slots.isEmpty, "every slot was answered and waited for, or closed")
    }
}
