/// The discriminator of a Matter onboarding payload (Matter Core Specification, section 5.1.1.5): the
/// number a commissionable device advertises, so a commissioner can tell it from its neighbours.
///
/// A QR code carries all 12 bits (``long(_:)``); a manual pairing code carries only the top 4 bits
/// (``short(_:)``), so a commissioner that has one matches every device whose 12-bit value starts
/// with them.
public enum Discriminator: Hashable, Sendable, CustomStringConvertible {
    /// The full 12-bit discriminator, 0 to 4095.
    case long(UInt16)
    /// The 4-bit short discriminator, 0 to 15: the top 4 bits of the long one.
    case short(UInt8)

    /// The largest long discriminator, 4095 (12 bits).
    public static let longMaximum: UInt16 = 0xFFF
    /// The largest short discriminator, 15 (4 bits).
    public static let shortMaximum: UInt8 = 0xF

    /// Whether only the short form is known.
    public var isShort: Bool { if case .short = self { true } else { false } }

    /// The number as carried: 12 bits for a long discriminator, 4 for a short one.
    public var value: UInt16 {
        switch self {
        case .long(let v): v
        case .short(let v): UInt16(v)
        }
    }

    /// The short discriminator: the top 4 of the 12 bits, or the short value itself.
    public var shortValue: UInt8 {
        switch self {
        case .long(let v): UInt8(truncatingIfNeeded: v >> 8)
        case .short(let v): v
        }
    }

    /// The short form of this discriminator (what a manual pairing code keeps of it).
    public var shortened: Discriminator { .short(shortValue) }

    /// Whether the value fits its field: 12 bits for a long discriminator, 4 for a short one.
    public var isInRange: Bool {
        switch self {
        case .long(let v): v <= Self.longMaximum
        case .short(let v): v <= Self.shortMaximum
        }
    }

    /// `3840` for a long discriminator, `15 (short)` for a short one.
    public var description: String {
        switch self {
        case .long(let v): String(v)
        case .short(let v): "\(v) (short)"
        }
    }
}
