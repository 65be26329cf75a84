/// A rule of the Matter Core Specification (section 5.1) that a payload breaks: the value was read (or
/// given) but the specification forbids it. Each case is one sentence for a person, and names its
/// ``rule``.
///
/// Parsing refuses a payload that breaks a rule, except the two that only ``isWarningOnParse``: a
/// reserved vendor ID and a zero product ID are shown with a warning, since the device exists and
/// printed them. Generating refuses every violation.
public enum RuleViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The payload version is not 0, the only version defined.
    case unsupportedVersion(UInt8)
    /// The passcode is 0 or above 99999998.
    case passcodeOutOfRange
    /// The passcode is one of the easily guessed values (11111111 … 88888888, 12345678, 87654321).
    case passcodeForbidden
    /// The discriminator does not fit its field: 12 bits, or 4 for a short one.
    case discriminatorOutOfRange(Discriminator)
    /// A QR code needs the 12-bit discriminator; only the short one is known.
    case shortDiscriminatorInQRCode
    /// The commissioning flow field holds the reserved value 3.
    case reservedCommissioningFlow(UInt8)
    /// Discovery capability bits that are reserved are set.
    case unknownDiscoveryCapabilities(UInt8)
    /// A QR code sets no discovery capability.
    case noDiscoveryCapabilities
    /// The vendor ID is above 0xFFF4, the reserved range.
    case reservedVendorID(VendorID)
    /// The product ID is 0 while the vendor ID is not.
    case zeroProductID
    /// An element of the optional data breaks its rule (wrong tag range, wrong type).
    case optionalData(String)

    /// The rule's name, as tbrctl prints it: `version`, `passcode`, `discriminator`,
    /// `commissioning-flow`, `discovery-capabilities`, `vendor-id`, `product-id`, `optional-data`.
    public var rule: String {
        switch self {
        case .unsupportedVersion: "version"
        case .passcodeOutOfRange, .passcodeForbidden: "passcode"
        case .discriminatorOutOfRange, .shortDiscriminatorInQRCode: "discriminator"
        case .reservedCommissioningFlow: "commissioning-flow"
        case .unknownDiscoveryCapabilities, .noDiscoveryCapabilities: "discovery-capabilities"
        case .reservedVendorID: "vendor-id"
        case .zeroProductID: "product-id"
        case .optionalData: "optional-data"
        }
    }

    /// Whether a parsed payload is shown with this as a warning rather than refused.
    public var isWarningOnParse: Bool {
        switch self {
        case .reservedVendorID, .zeroProductID: true
        default: false
        }
    }

    /// What is wrong, as one sentence without the rule's name. Never contains the passcode.
    public var sentence: String {
        switch self {
        case .unsupportedVersion(let v):
            "payload version \(v) is not supported; version 0 is the only one defined"
        case .passcodeOutOfRange:
            "the setup passcode must be from 00000001 to 99999998"
        case .passcodeForbidden:
            "the setup passcode is one of the forbidden values (00000000, 11111111 … 99999999, 12345678, 87654321)"
        case .discriminatorOutOfRange(.long(let v)):
            "discriminator \(v) does not fit in 12 bits (0 to 4095)"
        case .discriminatorOutOfRange(.short(let v)):
            "short discriminator \(v) does not fit in 4 bits (0 to 15)"
        case .shortDiscriminatorInQRCode:
            "a QR code carries the full 12-bit discriminator, and only the 4-bit short one is known"
        case .reservedCommissioningFlow(let v):
            "commissioning flow \(v) is reserved; 0 (standard), 1 (user intent) and 2 (custom) are defined"
        case .unknownDiscoveryCapabilities(let bits):
            "discovery capability bits 0x\(String(bits, radix: 16, uppercase: true)) are reserved; "
                + "only soft-AP, BLE, on-network and Wi-Fi PAF (bits 0 to 3) are defined"
        case .noDiscoveryCapabilities:
            "a QR code must name at least one discovery capability (soft-AP, BLE, on-network or Wi-Fi PAF)"
        case .reservedVendorID(let id):
            "vendor ID \(id) is reserved (above 0xFFF4); real vendors are below 0xFFF1 and test vendors are 0xFFF1 to 0xFFF4"
        case .zeroProductID:
            "product ID 0x0000 is never assigned to a product; it goes only with vendor ID 0x0000"
        case .optionalData(let why):
            why
        }
    }

    /// `breaks the <rule> rule: <sentence>`.
    public var description: String { "breaks the \(rule) rule: \(sentence)" }
}
