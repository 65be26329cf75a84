/// The bus's answer to `RequestName`.
public enum NameRequestReply: UInt32, Sendable {
    case primaryOwner = 1, inQueue = 2, exists = 3, alreadyOwner = 4
}

/// Flags for `RequestName`.
public struct NameRequestFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let allowReplacement = NameRequestFlags(rawValue: 1)
    public static let replaceExisting = NameRequestFlags(rawValue: 2)
    public static let doNotQueue = NameRequestFlags(rawValue: 4)
}

/// One change of a name's owner, as `NameOwnerChanged` reports it.
public struct NameOwnerChange: Sendable, Equatable {
    public var name: String
    /// The previous owner's unique name, nil if the name was unowned.
    public var oldOwner: String?
    /// The new owner's unique name, nil if the name is now unowned.
    public var newOwner: String?

    public init(name: String, oldOwner: String?, newOwner: String?) {
        self.name = name
        self.oldOwner = oldOwner
        self.newOwner = newOwner
    }
}

extension Connection {
    /// Asks the bus for `name` (`org.freedesktop.DBus.RequestName`).
    public func requestName(_ name: BusName, flags: NameRequestFlags = [.doNotQueue]) async throws -> NameRequestReply {
        let reply = try await callBus("RequestName", [.string(name.rawValue), .uint32(flags.rawValue)])
        guard let code = reply.first.flatMap({ try? $0.decode(as: UInt32.self) }), let r = NameRequestReply(rawValue: code)
        else { throw DBusError(.failed, "unexpected RequestName reply") }
        return r
    }

    /// Gives up `name`. Returns false if this connection did not own it.
    @discardableResult
    public func releaseName(_ name: BusName) async throws -> Bool {
        let reply = try await callBus("ReleaseName", [.string(name.rawValue)])
        return reply.first == .uint32(1)
    }

    /// Every name currently on the bus (`ListNames`), unique names included.
    public func listNames() async throws -> [String] {
        let reply = try await callBus("ListNames")
        guard let first = reply.first else { return [] }
        return try first.decode(as: [String].self)
    }

    /// The unique name owning `name`, or nil if nobody owns it.
    public func nameOwner(of name: BusName) async throws -> String? {
        do {
            let reply = try await callBus("GetNameOwner", [.string(name.rawValue)])
            return try reply.first?.decode(as: String.self)
        } catch let e as DBusError where e.name == .nameHasNoOwner {
            return nil
        }
    }

    /// Changes of `name`'s owner, as they happen. The rule is active when this returns, so a change
    /// right after a ``nameOwner(of:)`` check is not missed.
    public func nameOwnerChanges(of name: BusName) async throws -> AsyncThrowingMapSequence<SignalStream, NameOwnerChange> {
        Self.ownerChanges(try await signals(matching: .nameOwnerChanged(name)))
    }

    /// Every name that loses its owner from now on (a client leaving the bus has its unique name in
    /// ``NameOwnerChange/name`` and no new owner). The rule is active when this returns.
    public func namesLosingOwner() async throws -> AsyncThrowingMapSequence<SignalStream, NameOwnerChange> {
        Self.ownerChanges(try await signals(matching: .namesLosingOwner))
    }

    private static func ownerChanges(_ stream: SignalStream) -> AsyncThrowingMapSequence<SignalStream, NameOwnerChange> {
        stream.map { signal in
            let args = signal.arguments
            func str(_ i: Int) -> String? {
                guard i < args.count, case .string(let s) = args[i], !s.isEmpty else { return nil }
                return s
            }
            return NameOwnerChange(name: str(0) ?? "", oldOwner: str(1), newOwner: str(2))
        }
    }
}
