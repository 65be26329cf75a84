public import DBus

/// Finds otbr-agents on a bus: every owned name `io.openthread.BorderRouter.<if>`.
public struct AgentDiscovery: Sendable {
    /// The connection used.
    public let connection: Connection

    /// Discovery on `connection`.
    public init(connection: Connection) { self.connection = connection }

    /// An agent appearing or disappearing.
    public enum Event: Hashable, Sendable {
        /// An agent for this interface now owns its name (started or restarted).
        case appeared(ThreadInterfaceName, owner: String)
        /// The agent for this interface left the bus.
        case vanished(ThreadInterfaceName)
    }

    /// The interfaces whose agents are on the bus now, sorted (`ListNames`).
    /// - Throws: ``DBusError`` from the bus.
    public func agents() async throws -> [ThreadInterfaceName] {
        try await connection.listNames().compactMap { ThreadInterfaceName(busName: $0) }.sorted()
    }

    /// The agents present now (as `appeared` events, sorted by interface), then every agent that appears
    /// or vanishes (`NameOwnerChanged`). The subscription is in place before the listing, so nothing is
    /// missed; an agent may then be reported twice, which is harmless.
    /// - Throws: ``DBusError`` from the bus.
    public func events() async throws -> DiscoveryStream {
        let rule = MatchRule(
            sender: .bus, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged")
        let signals = try await connection.signals(matching: rule)
        var initial: [Event] = []
        for name in try await connection.listNames().sorted() {
            guard let interface = ThreadInterfaceName(busName: name) else { continue }
            if let owner = try await connection.nameOwner(of: interface.busName) {
                initial.append(.appeared(interface, owner: owner))
            }
        }
        return DiscoveryStream(initial: initial, signals: signals)
    }
}

/// The stream of ``AgentDiscovery/Event``s; buffering as ``SignalStream``.
public struct DiscoveryStream: AsyncSequence, Sendable {
    public typealias Element = AgentDiscovery.Event
    public typealias Failure = any Error

    let initial: [Element]
    let signals: SignalStream

    /// Signals dropped because the consumer fell behind.
    public var droppedCount: Int { signals.droppedCount }

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var pending: [Element]
        var base: SignalStream.AsyncIterator

        /// The next event; nil when the stream ends.
        /// - Throws: ``DBusError`` when the connection closes.
        public mutating func next() async throws -> Element? {
            if !pending.isEmpty { return pending.removeFirst() }
            while let signal = try await base.next() {
                guard signal.arguments.count == 3, case .string(let name) = signal.arguments[0],
                    case .string(let newOwner) = signal.arguments[2], let interface = ThreadInterfaceName(busName: name)
                else { continue }
                return newOwner.isEmpty ? .vanished(interface) : .appeared(interface, owner: newOwner)
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pending: initial, base: signals.makeAsyncIterator())
    }
}
