import DBus

extension BorderRouterAgent {
    /// Every property change the agent signals (`DeviceRole`, `ActiveDatasetTlvs`, `Dhcp6PdState`: the
    /// only ones it emits). The agent puts one property in each `PropertiesChanged`; this yields it.
    /// - Throws: ``AgentError`` if the bus refuses the subscription.
    public func propertyChanges() async throws(AgentError) -> AgentEventStream<PropertyChange> {
        let signals = try await subscribe(.propertiesChanged(sender: busName, path: objectPath, interface: OTBRNames.interface))
        return AgentEventStream(initial: [], signals: signals, interfaceName: interfaceName, operation: "PropertiesChanged") {
            Self.changes(in: $0).first
        }
    }

    /// The device role: the current role first (when the agent is running), then every change.
    /// - Throws: ``AgentError`` if the subscription fails or the current role cannot be read for another
    ///   reason than the agent not running.
    public func roleChanges() async throws(AgentError) -> AgentEventStream<DeviceRole> {
        try await attributeStream(.deviceRole, operation: "DeviceRole changes") { changes in
            guard case .string(let s)? = changes.first(where: { $0.name == "DeviceRole" })?.value else { return nil }
            return DeviceRole(wireName: s)
        }
    }

    /// The active dataset's TLVs: the current ones first (nil when there is none), then every change.
    /// - Throws: ``AgentError`` as ``roleChanges()``.
    public func activeDatasetChanges() async throws(AgentError) -> AgentEventStream<[UInt8]?> {
        let signals = try await subscribe(.propertiesChanged(sender: busName, path: objectPath, interface: OTBRNames.interface))
        var initial: [[UInt8]?] = []
        do { initial = [try await activeDatasetTLVs()] } catch where error.cause == .notRunning || error.cause == .agentExited {}
        return AgentEventStream(initial: initial, signals: signals, interfaceName: interfaceName, operation: "ActiveDatasetTlvs changes") {
            guard case .bytes(let b)? = Self.changes(in: $0).first(where: { $0.name == "ActiveDatasetTlvs" })?.value else {
                return nil
            }
            return .some(b)
        }
    }

    /// DHCPv6-PD state changes. The property has no getter, so there is no current value: only changes.
    public func dhcp6PDStateChanges() async throws(AgentError) -> AgentEventStream<Dhcp6PdState> {
        let signals = try await subscribe(.propertiesChanged(sender: busName, path: objectPath, interface: OTBRNames.interface))
        return AgentEventStream(initial: [], signals: signals, interfaceName: interfaceName, operation: "Dhcp6PdState changes") {
            guard case .string(let s)? = Self.changes(in: $0).first(where: { $0.name == "Dhcp6PdState" })?.value else {
                return nil
            }
            return Dhcp6PdState(wireName: s)
        }
    }

    /// The agent's `Ready` signals: one each time an agent instance for this interface starts.
    public func readySignals() async throws(AgentError) -> AgentEventStream<ReadySignal> {
        let rule = MatchRule(sender: busName, path: objectPath, interface: OTBRNames.interface, member: OTBRNames.readySignal)
        let signals = try await subscribe(rule)
        return AgentEventStream(initial: [], signals: signals, interfaceName: interfaceName, operation: "Ready") {
            ReadySignal(sender: $0.sender)
        }
    }

    /// Whether the agent runs: the current state first, then every change of its bus name's owner.
    /// An agent restarting shows as `notRunning` then `running` with a new owner.
    public func presence() async throws(AgentError) -> AgentEventStream<AgentPresence> {
        let signals = try await subscribe(.nameOwnerChanged(busName))
        let owner: String?
        do { owner = try await connection.nameOwner(of: busName) } catch {
            throw AgentError.from(error, interfaceName: interfaceName, operation: "GetNameOwner")
        }
        let initial: AgentPresence = owner.map { .running(owner: $0) } ?? .notRunning
        return AgentEventStream(initial: [initial], signals: signals, interfaceName: interfaceName, operation: "NameOwnerChanged") {
            guard $0.arguments.count == 3, case .string(let newOwner) = $0.arguments[2] else { return nil }
            return newOwner.isEmpty ? .notRunning : .running(owner: newOwner)
        }
    }

    // MARK: helpers

    func subscribe(_ rule: MatchRule) async throws(AgentError) -> SignalStream {
        do { return try await connection.signals(matching: rule) } catch {
            throw AgentError.from(error, interfaceName: interfaceName, operation: "AddMatch")
        }
    }

    private func attributeStream<V: Sendable>(
        _ property: AgentProperty<V>, operation: String, _ pick: @escaping @Sendable ([PropertyChange]) -> V?
    ) async throws(AgentError) -> AgentEventStream<V> {
        let signals = try await subscribe(.propertiesChanged(sender: busName, path: objectPath, interface: OTBRNames.interface))
        var initial: [V] = []
        do { initial = [try await read(property)] } catch where error.cause == .notRunning || error.cause == .agentExited {}
        return AgentEventStream(initial: initial, signals: signals, interfaceName: interfaceName, operation: operation) {
            pick(Self.changes(in: $0))
        }
    }

    /// The changed properties of a `PropertiesChanged` signal, in order.
    static func changes(in signal: Signal) -> [PropertyChange] {
        guard signal.arguments.count >= 2, case .dictionary(_, _, let entries) = signal.arguments[1] else { return [] }
        return entries.compactMap { entry in
            guard case .string(let name) = entry.key else { return nil }
            return PropertyChange(name: name, value: entry.value.unwrappingVariant)
        }
    }
}
