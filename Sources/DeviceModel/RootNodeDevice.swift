/// The root node of a device (Matter device type 0x0016): general information such as
/// ``BasicInformationTrait``.
public struct RootNodeDevice: DeviceType {
    /// The identifier, `home.matter.0000.types.0016`.
    public static var identifier: String { "home.matter.0000.types.0016" }

    /// The device's basic information.
    public let basicInformation: BasicInformationTrait

    /// A root node carrying `basicInformation`.
    public init(basicInformation: BasicInformationTrait) { self.basicInformation = basicInformation }

    /// The traits of this device type.
    public var allTraits: [any Trait] { [basicInformation] }
}
