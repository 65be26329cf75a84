import DeviceModel

/// What tbrd's router properties read from otbr-agent, kept for at most ``maximumAge``.
///
/// otbr-agent signals only its role and active dataset, so every other property must be read from it
/// again; a `GetAll` of `io.tbrd.BorderRouter1` would otherwise cost some 25 agent round trips. One read
/// of each group serves every property read within the next second (and concurrent reads share it).
actor RouterInfoCache {
    /// How old a value may be when served.
    let maximumAge: Duration

    private struct Entry<Value: Sendable>: Sendable {
        var value: Value
        var at: ContinuousClock.Instant
    }

    private var network: [DeviceID: Entry<ThreadNetworkManagementTrait.NetworkInfo?>] = [:]
    private var capabilities: [DeviceID: Entry<ThreadNetworkCapabilitiesTrait.Attributes>] = [:]
    private var basic: [DeviceID: Entry<BasicInformationTrait.Attributes>] = [:]

    init(maximumAge: Duration = .seconds(1)) {
        self.maximumAge = maximumAge
    }

    /// Forgets everything about `id` (its agent restarted or went away).
    func invalidate(_ id: DeviceID) {
        network[id] = nil
        capabilities[id] = nil
        basic[id] = nil
    }

    func networkInfo(_ id: DeviceID, _ read: () async throws -> ThreadNetworkManagementTrait.NetworkInfo?) async throws
        -> ThreadNetworkManagementTrait.NetworkInfo?
    {
        if let e = network[id], fresh(e.at) { return e.value }
        let value = try await read()
        network[id] = Entry(value: value, at: .now)
        return value
    }

    func capabilities(_ id: DeviceID, _ read: () async throws -> ThreadNetworkCapabilitiesTrait.Attributes) async throws
        -> ThreadNetworkCapabilitiesTrait.Attributes
    {
        if let e = capabilities[id], fresh(e.at) { return e.value }
        let value = try await read()
        capabilities[id] = Entry(value: value, at: .now)
        return value
    }

    func basicInformation(_ id: DeviceID, _ read: () async throws -> BasicInformationTrait.Attributes) async throws
        -> BasicInformationTrait.Attributes
    {
        if let e = basic[id], fresh(e.at) { return e.value }
        let value = try await read()
        basic[id] = Entry(value: value, at: .now)
        return value
    }

    private func fresh(_ at: ContinuousClock.Instant) -> Bool { ContinuousClock.now - at < maximumAge }
}
