public import DeviceModel
import Synchronization

/// Structures and their settings kept in memory: the default ``DeviceModel/StructureStore`` of a
/// ``BorderRouterService`` (tbrd backs the protocol with SQLite). Thread-safe.
public final class InMemoryStructureStore: StructureStore {
    private struct Entry {
        var info: StructureInfo
        let settings: AttributeCell<ThreadNetworkSettingsTrait.Attributes>
    }

    private let entries = Mutex<[StructureID: Entry]>([:])
    private let nextNumber = Mutex<Int>(1)

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
        return info
    }

    public func addDevice(_ device: DeviceID, to structure: StructureID) throws(HomeError) {
        let found = entries.withLock { e -> Bool in
            guard var entry = e[structure] else { return false }
            if !entry.info.deviceIDs.contains(device) {
                entry.info.deviceIDs.append(device)
                entry.info.deviceIDs.sort()
            }
            e[structure] = entry
            return true
        }
        guard found else { throw Self.notFound(structure) }
    }

    public func settings(of structure: StructureID) throws(HomeError) -> ThreadNetworkSettingsTrait.Attributes {
        guard let cell = cell(structure) else { throw Self.notFound(structure) }
        return cell.value
    }

    public func updateSettings(
        of structure: StructureID, _ change: @Sendable (inout ThreadNetworkSettingsTrait.Attributes) -> Void
    ) throws(HomeError) -> ThreadNetworkSettingsTrait.Attributes {
        guard let cell = cell(structure) else { throw Self.notFound(structure) }
        return cell.update(change)
    }

    public func settingsUpdates<T: Sendable & Equatable>(
        of structure: StructureID, _ transform: @escaping @Sendable (ThreadNetworkSettingsTrait.Attributes) -> T
    ) -> AttributeStream<T> {
        guard let cell = cell(structure) else {
            let (stream, continuation) = AsyncStream.makeStream(of: T.self)
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
