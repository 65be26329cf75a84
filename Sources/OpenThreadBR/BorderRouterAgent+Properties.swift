public import DBus
public import MeshCoP

extension BorderRouterAgent {
    /// Reads one property with `org.freedesktop.DBus.Properties.Get`.
    /// - Throws: ``AgentError``; for example `NotFound` for `ActiveDatasetTlvs` when there is none.
    public func read<Value>(_ property: AgentProperty<Value>) async throws(AgentError) -> Value {
        let get = getCall(property)
        let reply: [DBusValue]
        do {
            reply = try await connection.call(
                destination: get.destination, path: get.path, interface: get.interface, member: get.member, arguments: get.arguments,
                timeout: callTimeout)
        } catch {
            throw AgentError.from(error, interfaceName: interfaceName, operation: "Get \(property.name)")
        }
        return try decodeGet(reply, property)
    }

    /// The `Properties.Get` call that reads `property`.
    func getCall<Value>(_ property: AgentProperty<Value>) -> OutgoingCall {
        OutgoingCall(
            destination: busName, path: objectPath, interface: .properties, member: "Get",
            arguments: [.string(OTBRNames.interface.rawValue), .string(property.name)])
    }

    /// `property` from the reply of its `Properties.Get`.
    func decodeGet<Value>(_ reply: [DBusValue], _ property: AgentProperty<Value>) throws(AgentError) -> Value {
        let operation = "Get \(property.name)"
        guard let first = reply.first, case .variant(let value) = first else {
            throw failure(operation, .unexpectedReply("Properties.Get returned '\(reply.map(\.type.text).joined())'"))
        }
        do { return try property.decode(value) } catch { throw failure(operation, .unexpectedReply(error.description)) }
    }

    /// Reads several properties in one `GetProperties(as) → av` call, in order.
    ///
    /// The agent answers all or nothing: one unknown name fails the call with `NotFound`, one failing
    /// getter (for example `ActiveDatasetTlvs` without a dataset) fails it with that getter's error.
    /// - Throws: ``AgentError``.
    public func read<each Value>(_ properties: repeat AgentProperty<each Value>) async throws(AgentError)
        -> (repeat each Value)
    {
        var names: [String] = []
        for property in repeat each properties { names.append(property.name) }
        let values = try await propertyValues(names)
        var index = 0
        func next<V>(_ property: AgentProperty<V>) throws(AgentError) -> V {
            defer { index += 1 }
            do { return try property.decode(values[index]) } catch {
                throw failure("GetProperties", .unexpectedReply("\(property.name): \(error)"))
            }
        }
        return (repeat try next(each properties))
    }

    /// The raw values of `names` from one `GetProperties` call, variants unwrapped, in order.
    /// - Throws: ``AgentError``, including an unexpected reply when the count differs.
    public func propertyValues(_ names: [String]) async throws(AgentError) -> [DBusValue] {
        let reply = try await call("GetProperties", [.array(element: .string, names.map { .string($0) })])
        guard reply.count == 1, case .array(element: .variant, let items) = reply[0] else {
            throw failure("GetProperties", .unexpectedReply("expected 'av', got '\(reply.map(\.type.text).joined())'"))
        }
        guard items.count == names.count else {
            throw failure("GetProperties", .unexpectedReply("asked for \(names.count) values, got \(items.count)"))
        }
        return items.map(\.unwrappingVariant)
    }

    /// Writes `value` to property `name` with `org.freedesktop.DBus.Properties.Set`.
    /// - Throws: ``AgentError``.
    public func write(_ name: String, _ value: DBusValue) async throws(AgentError) {
        do {
            _ = try await connection.call(
                destination: busName, path: objectPath, interface: .properties, member: "Set",
                arguments: [.string(OTBRNames.interface.rawValue), .string(name), .variant(value)], timeout: callTimeout)
        } catch {
            throw AgentError.from(error, interfaceName: interfaceName, operation: "Set \(name)")
        }
    }

    // MARK: typed conveniences

    /// The device role.
    public func deviceRole() async throws(AgentError) -> DeviceRole { try await read(.deviceRole) }

    /// The active dataset's TLVs, or nil when the agent has none (its getter answers `NotFound`).
    public func activeDatasetTLVs() async throws(AgentError) -> [UInt8]? {
        try await readUnlessNotFound(.activeDatasetTLVs)
    }

    /// The pending dataset's TLVs, or nil when the agent has none.
    public func pendingDatasetTLVs() async throws(AgentError) -> [UInt8]? {
        try await readUnlessNotFound(.pendingDatasetTLVs)
    }

    /// The active dataset, decoded; nil when the agent has none.
    /// - Throws: ``AgentError``, with an unexpected reply when the TLVs do not decode.
    public func activeDataset() async throws(AgentError) -> OperationalDataset? {
        guard let tlvs = try await activeDatasetTLVs() else { return nil }
        do { return try OperationalDataset(bytes: tlvs) } catch {
            throw failure("Get ActiveDatasetTlvs", .unexpectedReply("the active dataset does not decode: \(error)"))
        }
    }

    private func readUnlessNotFound<V>(_ property: AgentProperty<V>) async throws(AgentError) -> V? {
        do { return try await read(property) } catch where error.openThreadError == .notFound { return nil }
    }

    /// The largest dataset the agent stores (`OT_OPERATIONAL_DATASET_MAX_LENGTH`).
    public static let maximumDatasetLength = 254

    /// Replaces the stored active dataset (`Set ActiveDatasetTlvs`). This stores it only: it does not
    /// attach (use ``attach()``, ``join(_:)`` or ``attachAllNodes(to:)``).
    ///
    /// The agent silently ignores a value over 254 bytes and answers success, so this refuses one first.
    /// - Throws: ``AgentError``: an invalid request for more than 254 bytes; `InvalidArgs` from the agent
    ///   for bytes that are not TLVs.
    public func setActiveDatasetTLVs(_ tlvs: [UInt8]) async throws(AgentError) {
        try checkDatasetLength(tlvs, "Set ActiveDatasetTlvs")
        try await write("ActiveDatasetTlvs", .bytes(tlvs))
    }

    func checkDatasetLength(_ tlvs: [UInt8], _ operation: String) throws(AgentError) {
        guard tlvs.count <= Self.maximumDatasetLength else {
            throw failure(operation, .invalidRequest(
                "the dataset is \(tlvs.count) bytes; otbr-agent takes at most \(Self.maximumDatasetLength)"))
        }
    }

    /// Turns the ePSKc feature on or off (`Set EphemeralKeyEnabled`). Off stops an active key at once.
    public func setEphemeralKeyEnabled(_ enabled: Bool) async throws(AgentError) {
        try await write("EphemeralKeyEnabled", .bool(enabled))
    }

    /// Writes the feature flags as given (`Set FeatureFlagListData`). Prefer ``updateFeatureFlags(_:)``:
    /// absent flags mean *off*.
    public func setFeatureFlags(_ flags: FeatureFlagList) async throws(AgentError) {
        try await write("FeatureFlagListData", .bytes(flags.serialized()))
    }

    /// Read-modify-write of the feature flags, keeping the other fields and unknown fields byte-exact.
    ///
    /// Because the agent applies every flag on write and an absent flag means off, the flags that other
    /// calls can switch are first filled from the agent's current state when the stored list lacks them
    /// (`enable_nat64` from `Nat64State`, `enable_ephemeralkey` from `EphemeralKeyEnabled`,
    /// `enable_dns_upstream_query` from `DnsUpstreamQueryState` where the agent has it), so that changing
    /// one flag does not switch the others off. Agents built without feature flags answer
    /// `NotImplemented` to the read, and nothing is written.
    /// - Returns: the list written.
    @discardableResult
    public func updateFeatureFlags(_ change: (inout FeatureFlagList) -> Void) async throws(AgentError) -> FeatureFlagList {
        var flags = try await read(.featureFlags)
        if flags.enableNat64 == nil {
            let state = try? await read(.nat64State)
            flags.enableNat64 = state?.isEnabled ?? false
        }
        if flags.enableEphemeralKey == nil {
            flags.enableEphemeralKey = (try? await read(.ephemeralKeyEnabled)) ?? false
        }
        if flags.enableDnsUpstreamQuery == nil, let on = try? await read(.dnsUpstreamQueryState) {
            flags.enableDnsUpstreamQuery = on
        }
        change(&flags)
        try await setFeatureFlags(flags)
        return flags
    }
}
