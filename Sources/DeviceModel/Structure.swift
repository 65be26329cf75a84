public import TBRFoundation

/// Identifies a structure (a named set of border routers, e.g. one home).
public struct StructureID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as text.
    public let rawValue: String

    /// The id `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// An id from a literal.
    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }

    public static func < (a: StructureID, b: StructureID) -> Bool { a.rawValue < b.rawValue }

    /// Decodes a JSON string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    /// Encodes as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// What a store keeps about a structure besides its settings.
public struct StructureInfo: Hashable, Sendable, Codable {
    /// The structure's id.
    public var id: StructureID
    /// Its name.
    public var name: String
    /// Its border routers.
    public var deviceIDs: [DeviceID]

    /// Information as given.
    public init(id: StructureID, name: String, deviceIDs: [DeviceID]) {
        self.id = id
        self.name = name
        self.deviceIDs = deviceIDs
    }
}

/// A structure of the home, with its ``ThreadNetworkSettingsTrait``.
///
/// ```swift
/// let settings = structure.traits(ThreadNetworkSettingsTrait.self)!
/// try await settings.update { $0.internetAccessOption = .internetAccessOptionNone }
/// ```
public struct Structure: Sendable, Identifiable {
    /// The structure as it was when fetched.
    public let info: StructureInfo
    private let store: any StructureStore

    /// The structure `info` kept in `store`.
    public init(info: StructureInfo, store: any StructureStore) {
        self.info = info
        self.store = store
    }

    /// The structure's id.
    public var id: StructureID { info.id }
    /// Its name.
    public var name: String { info.name }
    /// Its border routers, as when fetched.
    public var deviceIDs: [DeviceID] { info.deviceIDs }

    /// Adds the border router `device` to the structure (harmless when it is already in it).
    /// - Throws: ``HomeError`` `notFound` when the structure is gone.
    public func addDevice(_ device: DeviceID) async throws(HomeError) {
        try await store.addDevice(device, to: id)
    }

    /// The trait `T` of the structure (only ``ThreadNetworkSettingsTrait``), or nil.
    public func traits<T: Trait>(_ type: T.Type) -> T? {
        ThreadNetworkSettingsTrait(structure: id, store: store) as? T
    }
}
