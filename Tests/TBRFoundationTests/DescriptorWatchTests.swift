import Dispatch
import TBRFoundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The one descriptor-watching primitive: toggled by suspend and resume, immune to a descriptor number
/// reused behind its back, torn down once, closing only what it owns.
@Suite struct DescriptorWatchTests {
    /// A connected pair of Unix stream sockets: what one end writes, the other reads, and the other sees
    /// the end of the stream once every descriptor of the first end is closed.
    static func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw SocketPairFailed(code: errno)
        }
        return (fds[0], fds[1])
    }

    struct SocketPairFailed: Error {
        let code: Int32
    }

    /// Runs `body` on `queue` and returns its result.
    @discardableResult
    static func on<T: Sendable>(_ queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { c in queue.async { c.resume(with: Result { try body() }) } }
    }

    static func send(_ fd: Int32, _ byte: UInt8) {
        var b = byte
        #expect(Glibc.send(fd, &b, 1, Int32(MSG_NOSIGNAL)) == 1)
    }

    /// What `fd` has to read now, without waiting.
    static func readNow(_ fd: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    /// Whether `fd` is at the end of its stream now (its peer's every descriptor closed).
    static func endedNow(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    /// Whether `fd`'s peer ends the stream within 10 s (every descriptor of the other end closed), waited
    /// for off the cooperative threads.
    static func seesEndOfStream(_ fd: Int32) async -> Bool {
        await withCheckedContinuation { c in
            DispatchQueue.global().async {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 10_000) == 1 else { return c.resume(returning: false) }
                var byte: UInt8 = 0
                c.resume(returning: recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0)
            }
        }
    }

    /// What watches' handlers report, read in order, each within 10 s: a report that never comes fails
    /// the test instead of hanging it.
    final class Reports<Element: Sendable>: @unchecked Sendable {
        // @unchecked: the test task alone reads it, one report at a time; `sink` is Sendable.
        let sink: AsyncStream<Element>.Continuation
        private var iterator: AsyncStream<Element>.Iterator

        init() {
            let (stream, sink) = AsyncStream.makeStream(of: Element.self)
            self.sink = sink
            iterator = stream.makeAsyncIterator()
        }

        /// The next report; nil when the stream finished, or after 10 s without one.
        func next() async -> Element? {
            guard case .finished(let report)? = try? await TimeLimit.run(.seconds(10), clock: SystemClock(), { await self.iterator.next() })
            else { return nil }
            return report
        }
    }

    /// A slot for the watch a handler switches, set once the watch exists. Used on the watch's queue.
    final class Slot: @unchecked Sendable {
        var watch: DescriptorWatch?
    }

    @Test func switchedOnAndOffAThousandTimesItReportsOncePerSwitch() async throws {
        let (a, peer) = try Self.socketPair()
        defer { close(a); close(peer) }
        let queue = DispatchQueue(label: "test.descriptor-watch")
        let reports = Reports<DescriptorWatch.Events>()
        let sink = reports.sink
        let slot = Slot()
        let watch = try await Self.on(queue) {
            let watch = try DescriptorWatch(duplicating: a, events: [.readable, .writable], queue: queue) { ready in
                // Each report switches its direction off again, so each switch on gives exactly one.
                if ready == .readable { _ = Self.readNow(a) }
                slot.watch?.enabled.remove(ready)
                sink.yield(ready)
            }
            slot.watch = watch
            return watch
        }
        for _ in 0..<1000 {
            Self.send(peer, 1)
            try await Self.on(queue) { watch.enabled.insert(.readable) }
            #expect(await reports.next() == .readable)
            try await Self.on(queue) { watch.enabled.insert(.writable) }
            #expect(await reports.next() == .writable)
        }
        // Nothing more was reported, and nothing is after the watch is cancelled with data waiting.
        Self.send(peer, 2)
        try await Self.on(queue) {
            watch.cancel()
            watch.enabled = [.readable, .writable]
            sink.finish()
        }
        #expect(await reports.next() == nil)
        #expect(Self.readNow(a) == [2])
    }

    /// Watches made and torn down in batches while their peers hang up: the churn under which
    /// libdispatch's own epoll loop crashed (see ``DescriptorWatch``). Each watch reports the end of its
    /// stream as readable, once its write readiness is switched off, and is cancelled from its handler.
    @Test func watchesWhosePeersHangUpInBatchesEachReportTheEndAndAreTornDown() async throws {
        let queue = DispatchQueue(label: "test.descriptor-watch")
        let reports = Reports<Int>()
        let sink = reports.sink
        for batch in 0..<50 {
            var peers: [Int32] = []
            for index in 0..<20 {
                let (a, peer) = try Self.socketPair()
                peers.append(peer)
                let slot = Slot()
                try await Self.on(queue) {
                    let watch = try DescriptorWatch(taking: a, events: [.readable, .writable], queue: queue) { ready in
                        guard ready == .readable else {
                            slot.watch?.enabled.remove(.writable)
                            return
                        }
                        guard Self.endedNow(a) else { return }
                        slot.watch?.cancel()
                        slot.watch = nil
                        sink.yield(batch * 20 + index)
                    }
                    slot.watch = watch
                    watch.enabled = [.readable, .writable]
                }
            }
            for peer in peers { close(peer) }
            var seen = Set<Int>()
            for _ in 0..<20 {
                guard let report = await reports.next() else { break }
                seen.insert(report)
            }
            #expect(seen == Set((batch * 20)..<(batch * 20 + 20)))
        }
    }

    @Test func aNumberReusedAfterItsOwnerClosedItIsWatchedAfreshAndTheOldWatchKeepsItsOwnSocket() async throws {
        let queue = DispatchQueue(label: "test.descriptor-watch")
        let reports = Reports<(String, [UInt8])>()
        let sink = reports.sink
        // The library's first socket, and the test's own handle on it to read what reaches it.
        let (first, firstPeer) = try Self.socketPair()
        let firstKept = dup(first)
        defer { close(firstKept); close(firstPeer) }
        let old = try await Self.on(queue) {
            let watch = try DescriptorWatch(duplicating: first, events: .readable, queue: queue) { _ in
                sink.yield(("old", Self.readNow(firstKept)))
            }
            watch.enabled = .readable
            return watch
        }
        // The library closes its socket without telling the watch, and its next socket gets the same
        // number (dup2 makes sure of it).
        let (second, secondPeer) = try Self.socketPair()
        defer { close(secondPeer) }
        #expect(dup2(second, first) == first)
        close(second)
        defer { close(first) }
        let new = try await Self.on(queue) {
            let watch = try DescriptorWatch(duplicating: first, events: .readable, queue: queue) { _ in
                sink.yield(("new", Self.readNow(first)))
            }
            watch.enabled = .readable
            return watch
        }
        // A source on the number itself would join the old registration, whose socket epoll dropped
        // with its last descriptor: this report would never come.
        Self.send(secondPeer, 0x42)
        let second1 = await reports.next()
        #expect(second1?.0 == "new" && second1?.1 == [0x42])
        // The old watch follows its own socket through its duplicate, not the number.
        Self.send(firstPeer, 0x41)
        let first1 = await reports.next()
        #expect(first1?.0 == "old" && first1?.1 == [0x41])
        try await Self.on(queue) {
            old.cancel()
            new.cancel()
            sink.finish()
        }
        #expect(await reports.next() == nil)
    }

    @Test func tearingDownClosesTheDuplicatesOfABorrowedDescriptorAndAnOwnedOneButNothingElse() async throws {
        let queue = DispatchQueue(label: "test.descriptor-watch")

        // Borrowed, and closed by its owner first: the duplicates keep the socket open until teardown.
        let (borrowed, borrowedPeer) = try Self.socketPair()
        defer { close(borrowedPeer) }
        let watch = try await Self.on(queue) {
            let watch = try DescriptorWatch(duplicating: borrowed, events: [.readable, .writable], queue: queue) { _ in }
            watch.enabled = .writable
            return watch
        }
        close(borrowed)
        #expect(!Self.endedNow(borrowedPeer), "the stream ended with the watch's duplicates open")
        try await Self.on(queue) { watch.cancel() }
        #expect(await Self.seesEndOfStream(borrowedPeer), "the watch's duplicates were not closed")

        // Borrowed and still open: teardown leaves the owner's descriptor alone.
        let (kept, keptPeer) = try Self.socketPair()
        defer { close(keptPeer) }
        let keptWatch = try await Self.on(queue) {
            try DescriptorWatch(duplicating: kept, events: [.readable, .writable], queue: queue) { _ in }
        }
        try await Self.on(queue) {
            keptWatch.cancel()
            keptWatch.cancel()
        }
        Self.send(kept, 7)
        #expect(Self.readNow(keptPeer) == [7])
        close(kept)
        #expect(await Self.seesEndOfStream(keptPeer), "the watch's duplicates were not closed")

        // Owned: teardown closes the descriptor itself and its duplicate; released, it closes nothing more.
        let (owned, ownedPeer) = try Self.socketPair()
        defer { close(ownedPeer) }
        var ownedWatch: DescriptorWatch? = try await Self.on(queue) {
            try DescriptorWatch(taking: owned, events: [.readable, .writable], queue: queue) { _ in }
        }
        try await Self.on(queue) { [ownedWatch] in ownedWatch?.cancel() }
        #expect(await Self.seesEndOfStream(ownedPeer), "the owned descriptor was not closed")
        // Descriptors opened now may get the numbers the watch closed: releasing it must not close them.
        let (later, laterPeer) = try Self.socketPair()
        defer { close(later); close(laterPeer) }
        ownedWatch = nil
        Self.send(later, 9)
        #expect(Self.readNow(laterPeer) == [9])
        withExtendedLifetime(watch) {}
    }
}
