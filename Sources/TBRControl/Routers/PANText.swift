
/// PAN IDs as text.
enum PANText {
    /// `0x1234`.
    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
