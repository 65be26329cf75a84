/// A group of attributes, commands and events a device type carries, as in the Google Home APIs.
public protocol Trait: Sendable {
    /// The trait's identifier, e.g. `ThreadNetworkManagement`.
    static var identifier: String { get }
}

/// What a device is, with the traits that come with it (`BorderRouterDevice`, `RootNodeDevice`).
public protocol DeviceType: Sendable {
    /// The device type's identifier, e.g. `home.matter.6006.types.0161`.
    static var identifier: String { get }
    /// Every trait of this device type.
    var allTraits: [any Trait] { get }
}

extension DeviceType {
    /// The trait of type `T`, or nil when this device type does not carry it.
    public func traits<T: Trait>(_ type: T.Type) -> T? {
        for trait in allTraits { if let t = trait as? T { return t } }
        return nil
    }
}
