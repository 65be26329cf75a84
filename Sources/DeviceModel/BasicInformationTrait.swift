/// Who made a device and what it runs (Matter `BasicInformation`, on the root node device type).
///
/// For a border router over otbr-agent, `BorderRouterService` fills it as follows (docs/device-model.md):
/// names from tbrd's configuration, else from what the router advertises; ids from configuration only;
/// the software version from otbr-agent's `OtbrVersion`.
public struct BasicInformationTrait: Trait {
    /// The identifier, `BasicInformation`.
    public static var identifier: String { "BasicInformation" }

    /// Every attribute of the trait at once.
    public struct Attributes: Hashable, Sendable, Codable {
        /// The maker's name; empty when unknown.
        public var vendorName: String
        /// The maker's Matter vendor id; nil when not configured.
        public var vendorID: UInt16?
        /// The product's Matter product id; nil when not configured.
        public var productID: UInt16?
        /// The product (model) name; empty when unknown.
        public var productName: String
        /// The software version string; empty when unknown.
        public var softwareVersion: String

        /// Attributes as given.
        public init(vendorName: String, vendorID: UInt16?, productID: UInt16?, productName: String, softwareVersion: String) {
            self.vendorName = vendorName
            self.vendorID = vendorID
            self.productID = productID
            self.productName = productName
            self.softwareVersion = softwareVersion
        }

        /// Nothing known.
        public static var unknown: Attributes {
            Attributes(vendorName: "", vendorID: nil, productID: nil, productName: "", softwareVersion: "")
        }
    }

    private let backend: any BorderRouterBackend

    /// The trait of the device behind `backend`.
    public init(backend: any BorderRouterBackend) { self.backend = backend }

    /// Reads every attribute.
    /// - Throws: ``HomeError`` `unavailable` when the device cannot be reached and nothing is known.
    public func read() async throws(HomeError) -> Attributes { try await backend.basicInformation() }

    /// The maker's name.
    public var vendorName: Attribute<String> { attribute("vendorName", \.vendorName) }
    /// The maker's Matter vendor id (nil when not configured).
    public var vendorID: Attribute<UInt16?> { attribute("vendorID", \.vendorID) }
    /// The product's Matter product id (nil when not configured).
    public var productID: Attribute<UInt16?> { attribute("productID", \.productID) }
    /// The product name.
    public var productName: Attribute<String> { attribute("productName", \.productName) }
    /// The software version.
    public var softwareVersion: Attribute<String> { attribute("softwareVersion", \.softwareVersion) }

    private func attribute<T: Sendable & Equatable>(_ name: String, _ get: @escaping @Sendable (Attributes) -> T) -> Attribute<T> {
        let backend = self.backend
        return Attribute(
            name: name, isSupported: { true },
            read: { () async throws(HomeError) -> T in get(try await backend.basicInformation()) },
            stream: { backend.basicInformationUpdates { get($0) } })
    }
}
