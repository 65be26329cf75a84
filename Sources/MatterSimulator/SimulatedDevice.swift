public import MatterOnboarding

/// A device matter-sim pretends to find, as one `--device` word list says it:
/// `discriminator=3840 passcode=20202021 vendor-id=0xFFF1 product-id=0x8000 delay-ms=200 absent
/// no-multi-admin label-readonly`. Its passcode is a simulation's, like a label's.
///
/// Every simulated device is a Thread on/off light that can be reached over BLE (when matter-sim runs
/// with `--bluetooth`) and, once commissioned, over the IP network.
public struct SimulatedDevice: Hashable, Sendable {
    /// Its 12-bit discriminator (a manual code, which carries only the top 4 bits, matches it too).
    public var discriminator: UInt16
    /// The passcode it accepts.
    public var passcode: UInt32
    /// Its vendor ID (BasicInformation 0/40/2).
    public var vendorID: UInt16
    /// Its product ID (BasicInformation 0/40/4).
    public var productID: UInt16
    /// How long each of its commissioning steps takes (nil: matter-sim's `--step-ms`).
    public var stepDelay: Duration?
    /// Whether it answers at all (false: nobody is there; commissioning fails after discovery).
    public var isPresent: Bool
    /// Whether it has the administrator-commissioning cluster (0/60; false: it cannot be shared).
    public var supportsMultiAdmin: Bool
    /// Whether its NodeLabel (0/40/5) accepts writes (false: it answers UNSUPPORTED_WRITE).
    public var isLabelWritable: Bool

    /// A device as given.
    public init(
        discriminator: UInt16, passcode: UInt32, vendorID: UInt16 = 0xFFF1, productID: UInt16 = 0x8000, stepDelay: Duration? = nil,
        isPresent: Bool = true, supportsMultiAdmin: Bool = true, isLabelWritable: Bool = true
    ) {
        self.discriminator = discriminator
        self.passcode = passcode
        self.vendorID = vendorID
        self.productID = productID
        self.stepDelay = stepDelay
        self.isPresent = isPresent
        self.supportsMultiAdmin = supportsMultiAdmin
        self.isLabelWritable = isLabelWritable
    }

    /// The words ``init(parsing:)`` knows, for messages.
    public static let grammar =
        "discriminator=N passcode=N vendor-id=N product-id=N delay-ms=N absent no-multi-admin label-readonly"

    /// Reads `key=value` words: `discriminator` and `passcode` (required), `vendor-id`, `product-id`
    /// (decimal or 0x hex), `delay-ms`, and the flags `absent`, `no-multi-admin` and `label-readonly`.
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
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            switch (parts[0], parts.count == 2 ? parts[1] : nil) {
            case ("discriminator", let v?): discriminator = UInt16(try number("discriminator", v, max: 4095))
            case ("passcode", let v?): passcode = UInt32(try number("passcode", v, max: 99_999_998))
            case ("vendor-id", let v?): device.vendorID = UInt16(try number("vendor-id", v, max: 0xFFFF))
            case ("product-id", let v?): device.productID = UInt16(try number("product-id", v, max: 0xFFFF))
            case ("delay-ms", let v?): device.stepDelay = .milliseconds(Int64(try number("delay-ms", v, max: 600_000)))
            case ("absent", nil): device.isPresent = false
            case ("no-multi-admin", nil): device.supportsMultiAdmin = false
            case ("label-readonly", nil): device.isLabelWritable = false
            default: throw SimulatedDeviceError("unknown word '\(word)' (known: \(Self.grammar))")
            }
        }
        guard let discriminator, let passcode else { throw SimulatedDeviceError("a simulated device needs discriminator=N and passcode=N") }
        device.discriminator = discriminator
        device.passcode = passcode
        self = device
    }

    /// Whether a payload's discriminator is this device's (a short one matches the top 4 bits).
    public func matches(_ discriminator: Discriminator) -> Bool {
        switch discriminator {
        case .long(let d): self.discriminator == d
        case .short(let d): UInt8(self.discriminator >> 8) == d
        }
    }

    /// The device a payload describes, for a matter-sim given no devices: there, accepting the
    /// payload's passcode, with its vendor and product IDs (0xFFF1 and 0x8000 when it has none).
    public static func implied(by payload: SetupPayload) -> SimulatedDevice {
        SimulatedDevice(
            discriminator: payload.discriminator.isShort ? UInt16(payload.discriminator.shortValue) << 8 : payload.discriminator.value,
            passcode: payload.passcode.rawValue, vendorID: payload.vendorID?.rawValue ?? 0xFFF1,
            productID: payload.productID?.rawValue ?? 0x8000)
    }
}

/// A simulated device's description that cannot be read.
public struct SimulatedDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
