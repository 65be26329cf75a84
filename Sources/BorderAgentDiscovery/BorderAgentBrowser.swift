public import MDNS
public import TBRFoundation

/// Browses `_meshcop._udp` and `_meshcop-e._udp` through an ``MDNS/MDNSClient`` and keeps a
/// ``BorderAgentTable``.
///
/// ```swift
/// let browser = BorderAgentBrowser(client: mdns)
/// await browser.run { event, table in print(event) }      // until the task is cancelled
/// ```
public struct BorderAgentBrowser: Sendable {
    /// The mDNS client browsed with.
    public let client: MDNSClient
    /// How many undelivered events each browse holds (see ``MDNS/ServiceEventStream``).
    public let bufferLimit: Int
    /// Where a browse's deadline is timed.
    public let clock: any TBRClock

    /// A browser over `client`, timing deadlines on `clock`.
    public init(client: MDNSClient, bufferLimit: Int = 512, clock: any TBRClock = SystemClock()) {
        self.client = client
        self.bufferLimit = bufferLimit
        self.clock = clock
    }

    /// Browses until the task is cancelled, the client closes, or `deadline` passes; calls `body` for
    /// every change with the table after it, in order.
    /// - Returns: the table at the end.
    @discardableResult
    public func run(
        until deadline: ContinuousClock.Instant? = nil, _ body: (BorderAgentEvent, BorderAgentTable) async -> Void = { _, _ in }
    ) async -> BorderAgentTable {
        enum Input: Sendable {
            case meshcop(ServiceEvent)
            case ephemeral(ServiceEvent)
        }
        let meshcop = await client.browse(.meshcop, bufferLimit: bufferLimit)
        let ephemeral = await client.browse(.meshcopEphemeral, bufferLimit: bufferLimit)
        // Bounded as the browses it merges are: newer events beyond what both would hold are dropped.
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .bufferingOldest(2 * bufferLimit))
        var table = BorderAgentTable()
        let clock = self.clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Both browses feed the table; at the deadline (a TimeLimit) they stop and the inputs end.
                let feed: @Sendable () async throws -> Void = {
                    await withTaskGroup(of: Void.self) { feeders in
                        feeders.addTask { for await event in meshcop { continuation.yield(.meshcop(event)) } }
                        feeders.addTask { for await event in ephemeral { continuation.yield(.ephemeral(event)) } }
                        // One browse ending (the client closed) ends the inputs.
                        _ = await feeders.next()
                        feeders.cancelAll()
                    }
                }
                if let deadline {
                    _ = try? await TimeLimit.run(until: deadline, clock: clock, feed)
                } else {
                    try? await feed()
                }
                continuation.finish()
            }
            for await input in inputs {
                let changes: [BorderAgentEvent] =
                    switch input {
                    case .meshcop(let event): table.meshcop(event)
                    case .ephemeral(let event): table.ephemeral(event)
                    }
                for change in changes { await body(change, table) }
            }
            group.cancelAll()
        }
        return table
    }
}
