import DeviceModel

/// What tbrd's configuration says about one router; each field overrides what the router advertises.
public struct RouterConfiguration: Hashable, Sendable, Codable {
    /// A name for people (default: the interface name).
    public var displayName: String?
    /// `BasicInformation.vendorName` (default: the advertised `vn`).
    public var vendorName: String?
    /// `BasicInformation.productName` (default: the advertised `mn`).
    public var productName: String?
    /// `BasicInformation.vendorID`, the Matter vendor id (otbr-agent has none; default nil).
    public var vendorID: UInt16?
    /// `BasicInformation.productID`, the Matter product id (otbr-agent has none; default nil).
    public var productID: UInt16?

    /// A configuration as given.
    public init(
        displayName: String? = nil, vendorName: String? = nil, productName: String? = nil, vendorID: UInt16? = nil,
        productID: UInt16? = nil
    ) {
        self.displayName = displayName
        self.vendorName = vendorName
        self.productName = productName
        self.vendorID = vendorID
        self.productID = productID
    }
}
