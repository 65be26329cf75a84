/// A Matter product identifier, chosen by the vendor (Matter Core Specification, the onboarding
/// payload's 16-bit Product ID field of section 5.1).
///
/// Product ID 0x0000 is never assigned to a product: it stands for "any product" in discovery and OTA
/// files, so a payload carries it only together with vendor ID 0x0000.
public struct ProductID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 16-bit value.
    public var rawValue: UInt16

    /// The product ID `rawValue`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The product ID `value`.
    public init(_ value: UInt16) { self.rawValue = value }

    /// `0x8000`: upper-case hex, 4 digits.
    public var description: String { "0x" + hex4(rawValue) }

    /// Orders by value.
    public static func < (a: ProductID, b: ProductID) -> Bool { a.rawValue < b.rawValue }
}
