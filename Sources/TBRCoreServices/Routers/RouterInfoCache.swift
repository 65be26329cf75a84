package import BorderRouterService
package import TBRFoundation

/// What tbrd's router properties read from otbr-agent: fresh values kept for at most ``maximumAge``,
/// and the last values each router reported, served while it is offline and kept across restarts.
///
/// otbr-agent signals only its role and active dataset, so every other property must be read from it
/// again; a `GetAll` of `io.tbrd.BorderRouter1` would otherwise cost some 25 agent round trips. One read
/// of each group serves every property read within the next second.
package actor RouterInfoCache {
    /// How old a fresh value may be when served.
    package let maximumAge: Duration
    /// Called with a router's snapshot when what it reports changed (tbrd stores it).
    private let onChange: @Sendable (DeviceID, RouterSnapshot) async -> Void

    private var network = TimedValues<ThreadNetworkManagementTrait.NetworkInfo?>()
    private var capabilities = TimedValues<ThreadNetworkCapabilitiesTrait.Attributes>()
    private var basic = TimedValues<BasicInformationTrait.Attributes>()
    private var lastKnown: [DeviceID: RouterSnapshot] = [:]

    package init(maximumAge: Duration = .seconds(1), onChange: @escaping @Sendable (DeviceID, RouterSnapshot) async -> Void) {
        self.maximumAge = maximumAge
        self.onChange = onChange
    }

    /// Takes the snapshots stored by an earlier run.
    package func restore(_ snapshots: [DeviceID: RouterSnapshot]) {
        lastKnown.merge(snapshots) { current, _ in current }
    }

    /// What `id` last reported (empty when nothing is known).
    package func snapshot(_ id: DeviceID) -> RouterSnapshot { lastKnown[id] ?? RouterSnapshot() }

    /// Forgets the fresh values of `id` (its agent restarted, joined, left or went away); what it last
    /// reported stays.
    package func invalidate(_ id: DeviceID) {
        network.remove(id)
        capabilities.remove(id)
        basic.remove(id)
    }

    package func networkInfo(_ id: DeviceID, _ read: () async throws -> ThreadNetworkManagementTrait.NetworkInfo?) async throws
        -> ThreadNetworkManagementTrait.NetworkInfo?
    {
        if let value = network.value(for: id, maximumAge: maximumAge) { return value }
        let value = try await read()
        network.store(value, for: id)
        await remember(id) { $0.network = value }
        return value
    }

    package func capabilities(_ id: DeviceID, _ read: () async throws -> ThreadNetworkCapabilitiesTrait.Attributes) async throws
        -> ThreadNetworkCapabilitiesTrait.Attributes
    {
        if let value = capabilities.value(for: id, maximumAge: maximumAge) { return value }
        let value = try await read()
        capabilities.store(value, for: id)
        await remember(id) { $0.capabilities = value }
        return value
    }

    package func basicInformation(_ id: DeviceID, _ read: () async throws -> BasicInformationTrait.Attributes) async throws
        -> BasicInformationTrait.Attributes
    {
        if let value = basic.value(for: id, maximumAge: maximumAge) { return value }
        let value = try await read()
        basic.store(value, for: id)
        await remember(id) { $0.basicInformation = value }
        return value
    }

    /// Updates what `id` last reported; tells ``onChange`` when it differs.
    private func remember(_ id: DeviceID, _ change: (inout RouterSnapshot) -> Void) async {
        var updated = lastKnown[id] ?? RouterSnapshot()
        change(&updated)
        guard updated != lastKnown[id] else { return }
        lastKnown[id] = updated
        await onChange(id, updated)
    }
}

/// What a router last reported, for serving while it is offline. Stored as JSON in the store's
/// `routers.last_known`. Every part is nil until it was read once.
package struct RouterSnapshot: Codable, Equatable, Sendable {
    package var network: ThreadNetworkManagementTrait.NetworkInfo?
    package var capabilities: ThreadNetworkCapabilitiesTrait.Attributes?
    package var basicInformation: BasicInformationTrait.Attributes?
}

/// Values per router with the instant each was read.
package struct TimedValues<Value: Sendable>: Sendable {
    private var entries: [DeviceID: (value: Value, at: ContinuousClock.Instant)] = [:]

    /// The value for `id` if it was read less than `maximumAge` ago.
    package func value(for id: DeviceID, maximumAge: Duration) -> Value? {
        guard let e = entries[id], ContinuousClock.now - e.at < maximumAge else { return nil }
        return e.value
    }

    package mutating func store(_ value: Value, for id: DeviceID) { entries[id] = (value, .now) }
    package mutating func remove(_ id: DeviceID) { entries[id] = nil }
}
