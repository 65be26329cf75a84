/// A Matter onboarding payload (Matter Core Specification, section 5.1): what a device's QR code or
/// manual pairing code tells a commissioner. A pure value: parse it from either code, check it against
/// the specification's rules, and generate either code from it.
///
/// ```swift
/// let payload = try SetupPayload(parsing: "MT:Y.K9042C00KA0648G00")
/// payload.vendorID        // 0xFFF1
/// payload.discriminator   // .long(3840)
/// try payload.manualCode() // "34970112332"
/// ```
///
/// A manual code carries less than a QR code: no discovery capabilities (``discoveryCapabilities`` is
/// nil), the short discriminator only, the vendor and product IDs only in its 21-digit form, and of the
/// commissioning flow only whether it is standard. The passcode is a secret: ``Passcode`` never shows
/// it in `description`, and no error message contains it.
public struct SetupPayload: Hashable, Sendable {
    /// The payload format version; 0 is the only one defined.
    public var version: UInt8
    /// The vendor ID; nil when read from an 11-digit manual code.
    public var vendorID: VendorID?
    /// The product ID; nil when read from an 11-digit manual code.
    public var productID: ProductID?
    /// How the device enters commissioning mode.
    public var commissioningFlow: CommissioningFlow
    /// How the device can be found; nil when read from a manual code, which does not carry them.
    public var discoveryCapabilities: DiscoveryCapabilities?
    /// The discriminator: long from a QR code, short from a manual code.
    public var discriminator: Discriminator
    /// The setup passcode.
    public var passcode: Passcode
    /// The serial number from the QR code's optional data (tag 0x00), if any.
    public var serialNumber: SerialNumber?
    /// The other Matter-common elements of the optional data (tags 0x01 to 0x7F), in order.
    public var commonElements: [OptionalDataElement]
    /// The vendor's elements of the optional data (tags 0x80 to 0xFF), in order.
    public var vendorElements: [OptionalDataElement]

    /// A payload. Nothing is checked here: ``violations(for:)`` lists the rules it breaks, and
    /// ``qrCode()`` and ``manualCode()`` refuse to encode a payload that breaks one.
    /// - Parameters:
    ///   - version: the format version (default 0).
    ///   - vendorID: the vendor ID.
    ///   - productID: the product ID.
    ///   - commissioningFlow: how the device enters commissioning mode (default standard).
    ///   - discoveryCapabilities: how it can be found (default BLE, as for a Thread device).
    ///   - discriminator: the discriminator.
    ///   - passcode: the setup passcode.
    ///   - serialNumber: the serial number for the QR code's optional data.
    ///   - commonElements: other Matter-common optional data elements (tags 0x01 to 0x7F).
    ///   - vendorElements: vendor optional data elements (tags 0x80 to 0xFF).
    public init(
        version: UInt8 = 0, vendorID: VendorID?, productID: ProductID?,
        commissioningFlow: CommissioningFlow = .standard, discoveryCapabilities: DiscoveryCapabilities? = .ble,
        discriminator: Discriminator, passcode: Passcode, serialNumber: SerialNumber? = nil,
        commonElements: [OptionalDataElement] = [], vendorElements: [OptionalDataElement] = []
    ) {
        self.version = version
        self.vendorID = vendorID
        self.productID = productID
        self.commissioningFlow = commissioningFlow
        self.discoveryCapabilities = discoveryCapabilities
        self.discriminator = discriminator
        self.passcode = passcode
        self.serialNumber = serialNumber
        self.commonElements = commonElements
        self.vendorElements = vendorElements
    }

    /// Parses a QR code (`MT:…`) or a manual pairing code (11 or 21 digits, spaces and dashes allowed)
    /// and checks it against the specification.
    ///
    /// A payload that breaks only a rule that ``RuleViolation/isWarningOnParse`` (a reserved vendor ID,
    /// a zero product ID) is returned; ``warnings`` lists those.
    /// - Throws: ``SetupPayloadError``: the text cannot be decoded, joins several payloads with `*`, or
    ///   breaks a rule (``SetupPayloadError/ruleBroken(_:)``).
    public init(parsing text: String) throws(SetupPayloadError) {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= SetupPayloadError.maximumLength else { throw .tooLong(text.count) }
        if text.utf8.contains(UInt8(ascii: "*")) {
            throw .multiplePayloads(text.split(separator: "*", omittingEmptySubsequences: false).count)
        }
        switch PayloadKind(detecting: text) {
        case .qrCode: try self.init(qrCode: text)
        case .manualCode: try self.init(manualCode: text)
        }
    }

    /// The form this payload was read from: a manual code when it has no discovery capabilities.
    public var kind: PayloadKind { discoveryCapabilities == nil ? .manualCode : .qrCode }

    /// The rules this payload breaks that parsing only warns about (see
    /// ``RuleViolation/isWarningOnParse``): a reserved vendor ID, a zero product ID.
    public var warnings: [RuleViolation] { violations(for: kind).filter(\.isWarningOnParse) }

    /// The manual code's form for this payload: 21 digits (with the vendor and product IDs) when the
    /// flow is not standard, else 11.
    public var manualCodeLength: Int { commissioningFlow == .standard ? 11 : 21 }
}
