/// What Matter allows a commissioner to ask of a node, as tbrd checks it before asking.
public enum MatterLimits {
    /// The longest node name, in UTF-8 bytes: it is written to the device's Basic Information
    /// NodeLabel, which holds 32.
    public static let nodeNameBytes = 32
    /// How long a commissioning window opened to share a node may last (Matter: 3 to 15 minutes).
    public static let commissioningWindowSeconds: ClosedRange<UInt16> = 180...900
    /// The window when none is asked for.
    public static let defaultCommissioningWindowSeconds: UInt16 = 300
}
