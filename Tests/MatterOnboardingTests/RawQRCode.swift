import MatterOnboarding

/// A QR code built field by field, without the module's checks, so that tests can write values the
/// specification forbids and see the parser refuse them. Bits are packed least significant first, as
/// section 5.1.3.1 lays them out (this is the test's own packing, not the module's).
struct RawQRCode {
    var version: UInt32 = 0
    var vendorID: UInt32 = 0xFFF1
    var productID: UInt32 = 0x8000
    var flow: UInt32 = 0
    var capabilities: UInt32 = 0x02
    var discriminator: UInt32 = 3840
    var passcode: UInt32 = 20202021
    var padding: UInt32 = 0
    var trailing: [UInt8] = []

    /// The 11 bytes of fixed fields and the trailing bytes.
    var bytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: 11)
        var position = 0
        for (value, width) in [(version, 3), (vendorID, 16), (productID, 16), (flow, 2), (capabilities, 8),
                               (discriminator, 12), (passcode, 27), (padding, 4)] {
            for i in 0..<width where value >> i & 1 == 1 { out[(position + i) / 8] |= 1 << ((position + i) % 8) }
            position += width
        }
        return out + trailing
    }

    /// `MT:` and the Base38 of ``bytes``.
    var code: String { "MT:" + Base38.encode(bytes) }
}
