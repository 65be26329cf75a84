internal import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT as an awaitable event, through Dispatch signal sources.
final class SignalWaiter {
    private let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.stream = stream
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// Waits for the first signal and returns its number.
    func next() async -> Int32 {
        for await number in stream { return number }
        return 0
    }
}
