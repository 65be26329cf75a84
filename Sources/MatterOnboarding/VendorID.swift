/// A Matter vendor identifier (Matter Core Specification, section 2.5.2 and the onboarding payload's
/// 16-bit Vendor ID field of section 5.1).
///
/// Vendor IDs are assigned by the Connectivity Standards Alliance. Four are set aside for tests
/// (0xFFF1 to 0xFFF4, the IDs of the SDK's example apps); 0x0000 means "not specified"; everything
/// above 0xFFF4 is reserved and is never a real device's.
public struct VendorID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 16-bit value.
    public var rawValue: UInt16

    /// The vendor ID `rawValue`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The vendor ID `value`.
    public init(_ value: UInt16) { self.rawValue = value }

    /// 0x0000: no vendor is named. A payload may say so (the CHIP SDK's anonymous payloads do).
    public static let unspecified = VendorID(0x0000)

    /// The test vendor IDs, 0xFFF1 to 0xFFF4: allowed in payloads, never on a certified product.
    public static let testVendors: ClosedRange<UInt16> = 0xFFF1...0xFFF4

    /// The highest vendor ID a payload may carry: 0xFFF4 (the last test vendor).
    public static let highestAllowed: UInt16 = 0xFFF4

    /// Whether this is one of the test vendor IDs 0xFFF1 to 0xFFF4.
    public var isTestVendor: Bool { Self.testVendors.contains(rawValue) }

    /// Whether this ID is reserved (above 0xFFF4): a payload generated here never carries one, and a
    /// payload parsed with one is shown with a warning.
    public var isReserved: Bool { rawValue > Self.highestAllowed }

    /// `0xFFF1`: upper-case hex, 4 digits, as the Alliance's ledger writes vendor IDs.
    public var description: String { "0x" + hex4(rawValue) }

    /// Orders by value.
    public static func < (a: VendorID, b: VendorID) -> Bool { a.rawValue < b.rawValue }
}

/// `value` as 4 upper-case hex digits.
func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
}
