/// A Thread border router (Google Home API `GoogleBorderRouterDevice`, `home.matter.6006.types.0161`)
/// with its required traits ``ThreadNetworkCapabilitiesTrait`` and ``ThreadNetworkManagementTrait``.
///
/// ``traits(_:)`` also finds the traits of the device's root node (``BasicInformationTrait``), so a
/// border router handle is all a caller needs.
public struct BorderRouterDevice: DeviceType {
    /// The identifier, `home.matter.6006.types.0161`.
    public static var identifier: String { "home.matter.6006.types.0161" }

    /// What the border router can do.
    public let threadNetworkCapabilities: ThreadNetworkCapabilitiesTrait
    /// Its network and ePSKc.
    public let threadNetworkManagement: ThreadNetworkManagementTrait
    /// The root node of the same device.
    public let rootNode: RootNodeDevice

    /// The border router type of the router behind `router`, on the device whose root node is `rootNode`.
    public init(router: any BorderRouterBackend, rootNode: RootNodeDevice) {
        threadNetworkCapabilities = ThreadNetworkCapabilitiesTrait(backend: router)
        threadNetworkManagement = ThreadNetworkManagementTrait(backend: router)
        self.rootNode = rootNode
    }

    /// The traits of this device type.
    public var allTraits: [any Trait] { [threadNetworkCapabilities, threadNetworkManagement] }

    /// The trait `T` of this border router or of its root node, or nil.
    public func traits<T: Trait>(_ type: T.Type) -> T? {
        for trait in allTraits + rootNode.allTraits { if let t = trait as? T { return t } }
        return nil
    }
}
