public import TBRFoundation

/// One device of a home: its id, its name, and the device types it is.
///
/// A `HomeDevice` is fetched with ``Home/device(id:)``; its traits talk to the device live, and their
/// "is it supported" answers follow what the device last said.
///
/// ```swift
/// let device = try await home.device(id: "wpan0")
/// guard let br = device.type(BorderRouterDevice.self) else { return }
/// ```
public struct HomeDevice: Sendable, Identifiable {
    /// The device's id.
    public let id: DeviceID
    /// A name for people (configured, or the id).
    public let name: String
    /// The device types, the root node first.
    public let types: [any DeviceType]
    private let online: @Sendable () -> Bool

    /// A device with `types`.
    /// - Parameter isOnline: whether the device can be reached now (no I/O).
    public init(id: DeviceID, name: String, types: [any DeviceType], isOnline: @escaping @Sendable () -> Bool) {
        self.id = id
        self.name = name
        self.types = types
        self.online = isOnline
    }

    /// Whether the device can be reached now.
    public var isOnline: Bool { online() }

    /// The device type `T`, or nil when the device is not one.
    public func type<T: DeviceType>(_ type: T.Type) -> T? {
        for t in types { if let match = t as? T { return match } }
        return nil
    }

    /// Whether the device is a `T`.
    public func has<T: DeviceType>(_ type: T.Type) -> Bool { self.type(type) != nil }

    /// The trait `T` from whichever device type carries it, or nil.
    public func traits<T: Trait>(_ type: T.Type) -> T? {
        for t in types { if let trait = t.traits(type) { return trait } }
        return nil
    }
}
