package import DeviceModel
import MeshCoP
import Synchronization
package import TBRFoundation

/// The device model's structures, kept in tbrd's SQLite store: each change is written in one transaction
/// before it is visible and announced (so before anything is applied to a router); the settings and the
/// policy status are mirrored in memory only to stream them.
package final class PersistentStructureStore: StructureStore {
    package let store: TBRStore
    private let cells = Locked<[StructureID: AttributeCell<ThreadNetworkSettingsTrait.Attributes>]>([:])
    private let statusCells = Locked<[StructureID: AttributeCell<[RouterPolicyStatus]>]>([:])
    private let changeBroadcaster = EventBroadcaster<StructureChange>()

    package init(store: TBRStore) {
        self.store = store
    }

    // MARK: StructureStore

    package func structures() async throws(HomeError) -> [StructureInfo] {
        // One snapshot: a structure another client deletes meanwhile is listed whole or not at all.
        let all = try await call { () throws(StoreError) in try await store.structuresWithRouters() }
        return all.map { info($0.structure, $0.routers) }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    package func createStructure(name: String) async throws(HomeError) -> StructureInfo {
        let record = try await call { () throws(StoreError) in try await store.createStructure(named: name) }
        changeBroadcaster.publish(.created(Self.id(record.id)))
        return StructureInfo(id: Self.id(record.id), name: record.name, deviceIDs: [])
    }

    package func addDevice(_ device: DeviceID, to structure: StructureID) async throws(HomeError) {
        let recordID = try Self.recordID(structure)
        try await call { () throws(StoreError) in
            if try await store.knownRouter(device) == nil {
                try await store.recordRouter(device, interfaceName: device.rawValue, borderAgentID: nil)
            }
            try await store.addRouter(device, toStructure: recordID)
        }
        changeBroadcaster.publish(.membersChanged(structure))
    }

    package func settings(of structure: StructureID) async throws(HomeError) -> ThreadNetworkSettingsTrait.Attributes {
        try await cell(structure).value
    }

    package func updateSettings(
        of structure: StructureID, _ change: @Sendable (inout ThreadNetworkSettingsTrait.Attributes) -> Void
    ) async throws(HomeError) -> ThreadNetworkSettingsTrait.Attributes {
        let cell = try await cell(structure)
        var updated = cell.value
        change(&updated)
        let settings = Self.storeSettings(updated)
        let recordID = try Self.recordID(structure)
        _ = try await call { () throws(StoreError) in try await store.setSettings(settings, of: recordID) }
        _ = cell.set(updated)
        changeBroadcaster.publish(.settingsChanged(structure))
        return updated
    }

    package func policyStatus(of structure: StructureID) async throws(HomeError) -> [RouterPolicyStatus] {
        try await statusCell(structure).value
    }

    package func recordPolicyStatus(
        _ statuses: [RouterPolicyStatus], option: ThreadNetworkSettingsTrait.InternetAccessOption, of structure: StructureID
    ) async throws(HomeError) {
        let cell = try await statusCell(structure)
        let stored = option == .internetAccessOptionUnspecified ? nil : option.rawValue
        var records: [AppliedPolicyRecord] = []
        for status in statuses {
            records.append(AppliedPolicyRecord(router: status.deviceID, option: stored, state: Self.state(status.state), detail: status.detail))
        }
        _ = try await call { () throws(StoreError) in try await store.recordAppliedPolicies(records) }
        if cell.set(statuses.sorted { $0.deviceID < $1.deviceID }) { changeBroadcaster.publish(.policyStatusChanged(structure)) }
    }

    package func policyStatusUpdates(of structure: StructureID) -> AttributeStream<[RouterPolicyStatus]> {
        guard let cell = statusCells.withLock({ $0[structure] }) ?? (cells.withLock({ $0[structure] }) != nil ? loadedStatusCell(structure, []) : nil)
        else {
            let (stream, continuation) = AsyncStream.makeStream(of: [RouterPolicyStatus].self, bufferingPolicy: .bufferingNewest(0))
            continuation.finish()
            return AttributeStream(stream)
        }
        return cell.stream()
    }

    package func changes(bufferLimit: Int) -> EventStream<StructureChange> {
        changeBroadcaster.subscribe(bufferLimit: bufferLimit)
    }

    package func settingsUpdates<T: Sendable & Equatable>(
        of structure: StructureID, _ transform: @escaping @Sendable (ThreadNetworkSettingsTrait.Attributes) -> T
    ) -> AttributeStream<T> {
        guard let cell = cells.withLock({ $0[structure] }) else {
            let (stream, continuation) = AsyncStream.makeStream(of: T.self, bufferingPolicy: .bufferingNewest(0))
            continuation.finish()
            return AttributeStream(stream)
        }
        return cell.stream(transform)
    }

    // MARK: beyond the protocol (tbrd's D-Bus API)

    /// Removes `device` from `structure`.
    package func removeDevice(_ device: DeviceID, from structure: StructureID) async throws(HomeError) {
        let recordID = try Self.recordID(structure)
        try await call { () throws(StoreError) in try await store.removeRouter(device, fromStructure: recordID) }
        changeBroadcaster.publish(.membersChanged(structure))
    }

    /// Deletes `structure`; its routers become unassigned.
    package func deleteStructure(_ structure: StructureID) async throws(HomeError) {
        let recordID = try Self.recordID(structure)
        try await call { () throws(StoreError) in try await store.deleteStructure(recordID) }
        cells.withLock { $0.removeValue(forKey: structure) }?.finish()
        statusCells.withLock { $0.removeValue(forKey: structure) }?.finish()
        changeBroadcaster.publish(.deleted(structure))
    }

    /// The structure named `name`, or nil (also when it is deleted while it is read).
    package func structure(named name: String) async throws(HomeError) -> StructureInfo? {
        guard let record = try await call({ () throws(StoreError) in try await store.structure(named: name) }) else {
            return nil
        }
        return try await structure(id: Self.id(record.id))
    }

    /// The structure with `id`, or nil; its name and routers come from one snapshot.
    package func structure(id: StructureID) async throws(HomeError) -> StructureInfo? {
        guard let recordID = try? Self.recordID(id) else { return nil }
        guard let found = try await call({ () throws(StoreError) in try await store.structureWithRouters(id: recordID) }) else {
            return nil
        }
        return info(found.structure, found.routers)
    }

    /// The structure `device` belongs to, or nil.
    package func structure(containing device: DeviceID) async throws(HomeError) -> StructureInfo? {
        guard let record = try await call({ () throws(StoreError) in try await store.structure(containing: device) }) else {
            return nil
        }
        return try await structure(id: Self.id(record.id))
    }

    /// After a restore wrote the store anew (``TBRStore/restore(_:replacing:)``): each structure that was
    /// there is announced deleted and its cells dropped, then each one there now is loaded and announced
    /// created, with its members and settings (the policy reconciler applies them).
    package func restored(removing removed: [StructureRecord.ID]) async throws(HomeError) {
        for record in removed {
            let id = Self.id(record)
            cells.withLock { $0.removeValue(forKey: id) }?.finish()
            statusCells.withLock { $0.removeValue(forKey: id) }?.finish()
            changeBroadcaster.publish(.deleted(id))
        }
        try await load()
        for record in try await call({ () throws(StoreError) in try await store.structures() }) {
            let id = Self.id(record.id)
            changeBroadcaster.publish(.created(id))
            changeBroadcaster.publish(.membersChanged(id))
            changeBroadcaster.publish(.settingsChanged(id))
        }
    }

    /// Loads every structure's settings and policy status into memory (at start-up) so they can be streamed.
    package func load() async throws(HomeError) {
        for record in try await call({ () throws(StoreError) in try await store.structures() }) {
            _ = cellFor(record)
            _ = try await statusCell(Self.id(record.id))
        }
    }

    // MARK: mapping

    package static func id(_ record: StructureRecord.ID) -> StructureID { StructureID(String(record.rawValue)) }

    package static func recordID(_ id: StructureID) throws(HomeError) -> StructureRecord.ID {
        guard let n = Int64(id.rawValue) else { throw HomeError(.notFound, "there is no structure with the id \(id)") }
        return StructureRecord.ID(rawValue: n)
    }

    package static func attributes(_ settings: StructureSettings) -> ThreadNetworkSettingsTrait.Attributes {
        ThreadNetworkSettingsTrait.Attributes(
            internetAccessOption: settings.internetAccessOption.flatMap(ThreadNetworkSettingsTrait.InternetAccessOption.init(rawValue:))
                ?? .internetAccessOptionUnspecified,
            defaultThreadNetworkId: settings.defaultThreadNetworkID.flatMap { ExtendedPANID($0) })
    }

    package static func storeSettings(_ a: ThreadNetworkSettingsTrait.Attributes) -> StructureSettings {
        StructureSettings(
            internetAccessOption: a.internetAccessOption == .internetAccessOptionUnspecified ? nil : a.internetAccessOption.rawValue,
            defaultThreadNetworkID: a.defaultThreadNetworkId?.description)
    }

    private func info(_ record: StructureRecord, _ routers: [DeviceID]) -> StructureInfo {
        _ = cellFor(record)
        return StructureInfo(
            id: Self.id(record.id), name: record.name, deviceIDs: routers)
    }

    private func cellFor(_ record: StructureRecord) -> AttributeCell<ThreadNetworkSettingsTrait.Attributes> {
        cells.withLock { cells in
            if let cell = cells[Self.id(record.id)] { return cell }
            let cell = AttributeCell(Self.attributes(record.settings))
            cells[Self.id(record.id)] = cell
            return cell
        }
    }

    private func cell(_ structure: StructureID) async throws(HomeError) -> AttributeCell<ThreadNetworkSettingsTrait.Attributes> {
        if let cell = cells.withLock({ $0[structure] }) { return cell }
        let recordID = try Self.recordID(structure)
        guard let record = try await call({ () throws(StoreError) in try await store.structure(id: recordID) }) else {
            throw HomeError(.notFound, "there is no structure with the id \(structure)")
        }
        return cellFor(record)
    }

    /// The policy status cell of `structure`, loaded from the store's records the first time.
    private func statusCell(_ structure: StructureID) async throws(HomeError) -> AttributeCell<[RouterPolicyStatus]> {
        if let cell = statusCells.withLock({ $0[structure] }) { return cell }
        let recordID = try Self.recordID(structure)
        let records = try await call { () throws(StoreError) in try await store.appliedPolicies(inStructure: recordID) }
        let statuses = records.map { router, p in RouterPolicyStatus(deviceID: router, state: Self.state(p.state), detail: p.detail) }
        return loadedStatusCell(structure, statuses.sorted { $0.deviceID < $1.deviceID })
    }

    /// The status cell of `structure`, created with `statuses` unless another caller made it first.
    private func loadedStatusCell(_ structure: StructureID, _ statuses: [RouterPolicyStatus]) -> AttributeCell<[RouterPolicyStatus]> {
        statusCells.withLock { cells in
            if let cell = cells[structure] { return cell }
            let cell = AttributeCell(statuses)
            cells[structure] = cell
            return cell
        }
    }

    package static func state(_ s: RouterPolicyStatus.State) -> AppliedPolicy.State {
        switch s {
        case .applied: .applied
        case .pending: .pending
        case .failed: .failed
        case .unsupported: .unsupported
        }
    }

    package static func state(_ s: AppliedPolicy.State) -> RouterPolicyStatus.State {
        switch s {
        case .applied: .applied
        case .pending: .pending
        case .failed: .failed
        case .unsupported: .unsupported
        }
    }

    private func call<T>(_ body: () async throws(StoreError) -> T) async throws(HomeError) -> T {
        do {
            return try await body()
        } catch {
            throw Self.homeError(error)
        }
    }

    /// A store error as the device model's: what names something missing is `notFound`; what the caller
    /// asked wrongly (a name, a room the structure lacks) `invalidArgument`; a node or router already known or a room
    /// still holding nodes `invalidState`; the database failing `failed`.
    package static func homeError(_ error: StoreError) -> HomeError {
        switch error {
        case .structureNotFound, .routerNotFound, .routerNotInStructure, .matterNodeNotFound, .tokenNotFound: HomeError(.notFound, error.description)
        case .duplicateStructureName, .invalidStructureName, .routerInAnotherStructure, .invalidArgument, .invalidName, .roomNotFound,
            .duplicateRoom, .duplicateToken:
            HomeError(.invalidArgument, error.description)
        case .roomInUse, .matterNodeAlreadyRecorded, .routerAlreadyKnown: HomeError(.invalidState, error.description)
        case .sqlite, .schemaTooNew, .migrationFailed: HomeError(.failed, error.description)
        }
    }
}
