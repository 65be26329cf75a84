import DeviceModel

/// What tbrd's router properties read from otbr-agent, kept for at most ``maximumAge``.
///
/// otbr-agent signals only its role and active dataset, so every other property must be read from it
/// again; a `GetAll` of `io.tbrd.BorderRouter1` would otherwise cost some 25 agent round trips. One read
/// of each group serves every property read within the next second.
actor RouterInfoCache {
    /// How old a value may be when served.
    let maximumAge: Duration

    private var network = TimedValues<ThreadNetworkManagementTrait.NetworkInfo?>()
    private var capabilities = TimedValues<ThreadNetworkCapabilitiesTrait.Attributes>()
    private var basic = TimedValues<BasicInformationTrait.Attributes>()

    init(maximumAge: Duration = .seconds(1)) {
        self.maximumAge = maximumAge
    }

    /// Forgets everything about `id` (its agent restarted, joined, left or went away).
    func invalidate(_ id: DeviceID) {
        network.remove(id)
        capabilities.remove(id)
        basic.remove(id)
    }

    func networkInfo(_ id: DeviceID, _ read: () async throws -> ThreadNetworkManagementTrait.NetworkInfo?) async throws
        -> ThreadNetworkManagementTrait.NetworkInfo?
    {
        if let value = network.value(for: id, maximumAge: maximumAge) { return value }
        let value = try await read()
        network.store(value, for: id)
        return value
    }

    func capabilities(_ id: DeviceID, _ read: () async throws -> ThreadNetworkCapabilitiesTrait.Attributes) async throws
        -> ThreadNetworkCapabilitiesTrait.Attributes
    {
        if let value = capabilities.value(for: id, maximumAge: maximumAge) { return value }
        let value = try await read()
        capabilities.store(value, for: id)
        return value
    }

    func basicInformation(_ id: DeviceID, _ read: () async throws -> BasicInformationTrait.Attributes) async throws
        -> BasicInformationTrait.Attributes
    {
        if let value = basic.value(for: id, maximumAge: maximumAge) { return value }
        let value = try await read()
        basic.store(value, for: id)
        return value
    }
}

/// Values per router with the instant each was read.
struct TimedValues<Value: Sendable>: Sendable {
    private var entries: [DeviceID: (value: Value, at: ContinuousClock.Instant)] = [:]

    /// The value for `id` if it was read less than `maximumAge` ago.
    func value(for id: DeviceID, maximumAge: Duration) -> Value? {
        guard let e = entries[id], ContinuousClock.now - e.at < maximumAge else { return nil }
        return e.value
    }

    mutating func store(_ value: Value, for id: DeviceID) { entries[id] = (value, .now) }
    mutating func remove(_ id: DeviceID) { entries[id] = nil }
}
