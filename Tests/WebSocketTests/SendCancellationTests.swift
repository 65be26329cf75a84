import TBRFoundation
import TBRTestKit
import Testing
@testable import WebSocket

/// A send whose caller gives up (its time limit passes) fails alone: the connection goes on for the
/// other callers, never "cancelled" for someone who did not cancel.
@Suite struct SendCancellationTests {
    @Test func sendsCutByATimeLimitFailAloneAndTheConnectionGoesOn() async throws {
        // The server reads nothing until the gate opens, then records what arrives and answers texts.
        let (gate, opened) = AsyncStream.makeStream(of: Void.self)
        let received = Locked<[String]>([])
        let (server, task) = try await ServerTests.serve { connection in
            for await _ in gate { break }
            while case let message? = try? await connection.receive() {
                switch message {
                case .binary(let bytes): received.withLock { $0.append("binary of \(bytes.count) bytes") }
                case .text(let text):
                    received.withLock { $0.append(text) }
                    try? await connection.send(text: "got \(text)")
                }
            }
        }
        defer { task.cancel() }
        let client = try await LiveClientTests.bounded { try await WebSocketClient.connect(to: server.url) }
        // Another caller waits for the server's answer meanwhile (as the commissioner's reader does).
        let answer = Task { try await client.receive() }

        // 12 MiB cannot all go into the sockets' buffers while the server reads nothing: the send is
        // partly written, and stays so, when its limit passes.
        let clock = ManualClock()
        let big = [UInt8](repeating: 0x5A, count: 12 << 20)
        let cut = Task { try await TimeLimit.run(.seconds(30), clock: clock) { try await client.send(binary: big) } }
        try await eventually("the send is stuck partway", timeout: .seconds(30)) {
            let queued = await client.tcp.queuedBytes
            return queued > 0 && queued < big.count && clock.sleeperCount == 1
        }
        clock.advance(by: .seconds(30))
        guard case .timedOut = try await cut.value else {
            Issue.record("12 MiB went out to a server that reads nothing")
            return
        }
        // Queued behind it, not a byte written: dropped.
        let queuedBefore = await client.tcp.queuedBytes
        let dropped = Task { try await TimeLimit.run(.seconds(30), clock: clock) { try await client.send(text: "dropped") } }
        try await eventually("the second send is queued") { await client.tcp.queuedBytes > queuedBefore && clock.sleeperCount == 1 }
        clock.advance(by: .seconds(30))
        guard case .timedOut = try await dropped.value else {
            Issue.record("a send behind a stuck one finished")
            return
        }
        #expect(await client.tcp.queuedBytes == queuedBefore)

        opened.yield()
        try await LiveClientTests.bounded { try await client.send(text: "after") }
        #expect(try await LiveClientTests.bounded { try await answer.value } == .text("got after"))
        // The message half written when its caller gave up was finished, whole; the one not started
        // never went out.
        #expect(received.withLock { $0 } == ["binary of \(12 << 20) bytes", "after"])
        await client.close()
    }
}
