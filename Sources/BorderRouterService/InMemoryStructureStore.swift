import RouterFleet
import InternetAccessPolicy
import MatterCommissioning
public import DeviceModel
import Synchronization
public import TBRFoundation

/// Structures and their settings kept in memory: the default ``DeviceModel/StructureStore`` of a
/// ``BorderRouterService`` (tbrd backs the protocol with SQLite). A router belongs to at most one
/// structure. Thread-safe.
public final class InMemoryStructureStore: StructureStore {
    private struct Entry {
        var info: StructureInfo
        let settings: AttributeCell<ThreadNetworkSettingsTrait.Attributes>
        let policyStatus = AttributeCell<[RouterPolicyStatus]>([])
    }

    private let entries = Locked<[StructureID: Entry]>([:])
    private let nextNumber = Locked<Int>(1)
    private let changeBroadcaster = EventBroadcaster<StructureChange>()

    /// An empty store.
    public init() {}

    public func structures() throws(HomeError) -> [StructureInfo] {
        entries.withLock { $0.values.map(\.info) }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    public func createStructure(name: String) throws(HomeError) -> StructureInfo {
        let trimmed = name.trimmingSpaces
        guard !trimmed.isEmpty else { throw HomeError(.invalidArgument, "a structure needs a name") }
        let number = nextNumber.withLock { n -> Int in
            defer { n += 1 }
            return n
        }
        let info = StructureInfo(id: StructureID("structure\(number)"), name: trimmed, deviceIDs: [])
        let taken = entries.withLock { e -> Bool in
            guard !e.values.contains(where: { $0.info.name == trimmed }) else { return true }
            e[info.id] = Entry(info: info, settings: AttributeCell(ThreadNetworkSettingsTrait.Attributes()))
            return false
        }
        guard !taken else { throw HomeError(.invalidArgument, "a structure named \"\(trimmed)\" already exists") }
        changeBroadcaster.publish(.created(info.id))
        return info
    }

    public func addDevice(_ device: DeviceID, to structure: StructureID) throws(HomeError) {
        let left = entries.withLock { e -> [StructureID]? in
            guard var entry = e[structure] else { return nil }
            guard !entry.info.deviceIDs.contains(device) else { return [] }
            // A router belongs to at most one structure: it leaves the one it was in.
            var left: [StructureID] = []
            for (id, var other) in e where other.info.deviceIDs.contains(device) {
                other.info.deviceIDs.removeAll { $0 == device }
                e[id] = other
                left.append(id)
            }
            entry.info.deviceIDs.append(device)
            entry.info.deviceIDs.sort()
            e[structure] = entry
            return left + [structure]
        }
        guard let left else { throw Self.notFound(structure) }
        for id in left { changeBroadcaster.publish(.membersChanged(id)) }
    }

    public func settings(of structure: StructureID) throws(HomeError) -> ThreadNetworkSettingsTrait.Attributes {
        guard let cell = cell(structure) else { throw Self.notFound(structure) }
        return cell.value
    }

    public func updateSettings(
        of structure: StructureID, _ change: @Sendable (inout ThreadNetworkSettingsTrait.Attributes) -> Void
    ) throws(HomeError) -> ThreadNetworkSettingsTrait.Attributes {
        guard let cell = cell(structure) else { throw Self.notFound(structure) }
        let before = cell.value
        let after = cell.update(change)
        if after != before { changeBroadcaster.publish(.settingsChanged(structure)) }
        return after
    }

    public func policyStatus(of structure: StructureID) throws(HomeError) -> [RouterPolicyStatus] {
        guard let cell = entries.withLock({ $0[structure]?.policyStatus }) else { throw Self.notFound(structure) }
        return cell.value
    }

    public func recordPolicyStatus(
        _ statuses: [RouterPolicyStatus], option: ThreadNetworkSettingsTrait.InternetAccessOption, of structure: StructureID
    ) throws(HomeError) {
        guard let cell = entries.withLock({ $0[structure]?.policyStatus }) else { throw Self.notFound(structure) }
        if cell.set(statuses.sorted { $0.deviceID < $1.deviceID }) { changeBroadcaster.publish(.policyStatusChanged(structure)) }
    }

    public func policyStatusUpdates(of structure: StructureID) -> AttributeStream<[RouterPolicyStatus]> {
        guard let cell = entries.withLock({ $0[structure]?.policyStatus }) else {
            let (stream, continuation) = AsyncStream.makeStream(of: [RouterPolicyStatus].self, bufferingPolicy: .bufferingNewest(0))
            continuation.finish()
            return AttributeStream(stream)
        }
        return cell.stream()
    }

    public func changes(bufferLimit: Int) -> EventStream<StructureChange> {
        changeBroadcaster.subscribe(bufferLimit: bufferLimit)
    }

    public func settingsUpdates<T: Sendable & Equatable>(
        of structure: StructureID, _ transform: @escaping @Sendable (ThreadNetworkSettingsTrait.Attributes) -> T
    ) -> AttributeStream<T> {
        guard let cell = cell(structure) else {
            let (stream, continuation) = AsyncStream.makeStream(of: T.self, bufferingPolicy: .bufferingNewest(0))
            continuation.finish()
            return AttributeStream(stream)
        }
        return cell.stream(transform)
    }

    private func cell(_ structure: StructureID) -> AttributeCell<ThreadNetworkSettingsTrait.Attributes>? {
        entries.withLock { $0[structure]?.settings }
    }

    private static func notFound(_ structure: StructureID) -> HomeError {
        HomeError(.notFound, "there is no structure with the id \(structure)")
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
