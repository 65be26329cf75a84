import DeviceModel
import Foundation
import TBRFoundation
import TBRTestKit
import Testing

/// Streams that end while their cell or broadcaster is delivering: the subscriber is forgotten and nothing
/// hangs. The ending (`onTermination`, run under the cancelled task's lock) used to take the cell's lock
/// while a delivery held the cell's lock and waited to wake that task: tbrd once hung stopping so.
@Suite struct StreamEndTests {
    static let rounds = 300

    @Test func aCellDeliveringWhileItsStreamsAreCancelledNeverHangs() async throws {
        let cell = AttributeCell(0)
        let done = Locked(false)
        // Another thread changes the value as fast as it can for the whole test.
        let writer = Thread {
            var n = 0
            while !done.withLock({ $0 }) {
                n += 1
                cell.set(n)
            }
        }
        writer.start()
        let rounds = Locked(0)
        let work = Task {
            for _ in 0..<Self.rounds {
                let reader = Task { for await _ in cell.stream() {} }
                await Task.yield()
                reader.cancel()
                _ = await reader.value
                rounds.withLock { $0 += 1 }
            }
        }
        try await eventually("\(Self.rounds) streams end while the cell delivers", timeout: .seconds(120)) {
            rounds.withLock { $0 } == Self.rounds
        }
        await work.value
        done.withLock { $0 = true }
    }

    @Test func aBroadcasterForgetsAStreamThatEnded() async throws {
        let broadcaster = EventBroadcaster<Int>()
        let reader = Task { for await _ in broadcaster.subscribe(bufferLimit: 4) {} }
        try await eventually("subscribed") { broadcaster.subscriberCount == 1 }
        reader.cancel()
        _ = await reader.value
        #expect(broadcaster.subscriberCount == 0)
        broadcaster.publish(1)
        #expect(broadcaster.subscriberCount == 0)
    }
}
