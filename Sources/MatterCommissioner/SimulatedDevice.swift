/// A device the ``SimulatedCommissioner`` pretends to find, as one line of tbrd.conf says it
/// (`matter-simulated-device = discriminator=3840 passcode=20202021 vendor-id=0xFFF1 product-id=0x8000
/// delay-ms=200 absent no-multi-admin`). Its passcode is a simulation's, like a label's.
public struct SimulatedDevice: Hashable, Sendable {
    /// Its 12-bit discriminator (a manual code, which carries only the top 4 bits, matches it too).
    public var discriminator: UInt16
    /// The passcode it accepts.
    public var passcode: UInt32
    /// Its vendor ID.
    public var vendorID: UInt16
    /// Its product ID.
    public var productID: UInt16
    /// How long each of its stages takes (nil: the commissioner's step).
    public var stepDelay: Duration?
    /// Whether it answers at all (false: nobody is there; commissioning fails after the discovery time).
    public var isPresent: Bool
    /// Whether it has the administrator-commissioning cluster (false: it cannot be shared).
    public var supportsMultiAdmin: Bool

    /// A device as given.
    public init(
        discriminator: UInt16, passcode: UInt32, vendorID: UInt16 = 0xFFF1, productID: UInt16 = 0x8000, stepDelay: Duration? = nil,
        isPresent: Bool = true, supportsMultiAdmin: Bool = true
    ) {
        self.discriminator = discriminator
        self.passcode = passcode
        self.vendorID = vendorID
        self.productID = productID
        self.stepDelay = stepDelay
        self.isPresent = isPresent
        self.supportsMultiAdmin = supportsMultiAdmin
    }

    /// Reads `key=value` words: `discriminator` and `passcode` (required), `vendor-id`, `product-id`
    /// (decimal or 0x hex), `delay-ms`, and the flags `absent` and `no-multi-admin`.
    /// - Throws: ``SimulatedDeviceError`` naming the word that is wrong.
    public init(parsing text: String) throws(SimulatedDeviceError) {
        var discriminator: UInt16?, passcode: UInt32?
        var device = SimulatedDevice(discriminator: 0, passcode: 0)
        func number(_ key: Substring, _ value: Substring, max: UInt64) throws(SimulatedDeviceError) -> UInt64 {
            let isHex = value.hasPrefix("0x") || value.hasPrefix("0X")
            guard let n = UInt64(isHex ? value.dropFirst(2) : value, radix: isHex ? 16 : 10), n <= max else {
                throw SimulatedDeviceError("\(key) must be a number from 0 to \(max), not '\(value)'")
            }
            return n
        }
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            let parts = word.split(separator: "=", maxSplits: 1)
            switch (parts[0], parts.count == 2 ? parts[1] : nil) {
            case ("discriminator", let v?): discriminator = UInt16(try number("discriminator", v, max: 4095))
            case ("passcode", let v?): passcode = UInt32(try number("passcode", v, max: 99_999_998))
            case ("vendor-id", let v?): device.vendorID = UInt16(try number("vendor-id", v, max: 0xFFFF))
            case ("product-id", let v?): device.productID = UInt16(try number("product-id", v, max: 0xFFFF))
            case ("delay-ms", let v?): device.stepDelay = .milliseconds(Int64(try number("delay-ms", v, max: 600_000)))
            case ("absent", nil): device.isPresent = false
            case ("no-multi-admin", nil): device.supportsMultiAdmin = false
            default:
                throw SimulatedDeviceError(
                    "unknown word '\(word)' (known: discriminator=N passcode=N vendor-id=N product-id=N delay-ms=N absent no-multi-admin)")
            }
        }
        guard let discriminator, let passcode else { throw SimulatedDeviceError("a simulated device needs discriminator=N and passcode=N") }
        device.discriminator = discriminator
        device.passcode = passcode
        self = device
    }
}

/// A simulated device's description that cannot be read.
public struct SimulatedDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
