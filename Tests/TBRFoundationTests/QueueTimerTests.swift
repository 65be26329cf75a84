import Dispatch
import TBRFoundation
import Testing

/// The one queue-confined Dispatch timer: a one-shot disarms itself as it fires, a repeating one fires
/// until disarmed, and a timer disarmed before its time never fires. Nothing here measures time.
@Suite struct QueueTimerTests {
    /// A timer on a queue of its own whose firings are an event stream.
    final class Rig: @unchecked Sendable {
        // @unchecked: `timer` is used on `queue` only.
        let queue = DispatchQueue(label: "tbrd.test.queue-timer")
        let fired: AsyncStream<Bool>
        private let sink: AsyncStream<Bool>.Continuation
        var timer: QueueTimer!

        init() {
            (fired, sink) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(64))
            queue.sync {
                timer = QueueTimer(queue: queue) { [unowned self] in sink.yield(self.timer.isArmed) }
            }
        }

        func on(_ body: @escaping (QueueTimer) -> Void) { queue.sync { body(timer) } }
    }

    @Test func aOneShotFiresOnceAndIsDisarmedWhenItDoes() async {
        let rig = Rig()
        var firings = rig.fired.makeAsyncIterator()
        rig.on { $0.arm(after: .milliseconds(1)) }
        #expect(await firings.next() == false, "disarmed before its handler runs")
        // Armed again from the handler's point of view: it fires again, once.
        rig.on { $0.arm(at: ContinuousClock.now) }
        #expect(await firings.next() == false)
        rig.on { #expect(!$0.isArmed) }
    }

    @Test func aRepeatingTimerFiresUntilDisarmed() async {
        let rig = Rig()
        var firings = rig.fired.makeAsyncIterator()
        rig.on { $0.arm(every: .milliseconds(1)) }
        #expect(await firings.next() == true)
        #expect(await firings.next() == true)
        rig.on { $0.disarm() }
        // A firing already queued finds it disarmed and is dropped; arming a one-shot proves the order.
        rig.on { $0.arm(after: .zero) }
        var last: Bool?
        while let armed = await firings.next() {
            last = armed
            if !armed { break }
        }
        #expect(last == false)
    }

    @Test func aTimerDisarmedInTimeNeverFires() async {
        let rig = Rig()
        var firings = rig.fired.makeAsyncIterator()
        rig.on {
            $0.arm(after: .seconds(3600))
            $0.disarm()
            $0.arm(after: .zero)
        }
        #expect(await firings.next() == false, "the one firing is the one-shot armed last")
        rig.on { $0.cancel() }
    }
}
