/// The ways a commissioner can find the device (Matter Core Specification, section 5.1.3.1, the
/// 8-bit Discovery Capabilities bitmask of the QR code). A manual pairing code does not carry them.
///
/// Bits 0 to 3 are defined (soft-AP, BLE, on the IP network, Wi-Fi Public Action Frames); the others
/// are reserved and a QR code must not set them. A QR code must set at least one bit.
public struct DiscoveryCapabilities: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The bitmask as carried in the QR code.
    public let rawValue: UInt8

    /// The capabilities whose bits are set in `rawValue`, known or not.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: the device can host a Wi-Fi soft access point for commissioning.
    public static let softAP = DiscoveryCapabilities(rawValue: 1 << 0)
    /// Bit 1: the device advertises over Bluetooth Low Energy (Thread devices do this).
    public static let ble = DiscoveryCapabilities(rawValue: 1 << 1)
    /// Bit 2: the device is already on the IP network and advertises over DNS-SD.
    public static let onNetwork = DiscoveryCapabilities(rawValue: 1 << 2)
    /// Bit 3: the device can be found with Wi-Fi Public Action Frames (Wi-Fi PAF, Matter 1.4).
    public static let wifiPAF = DiscoveryCapabilities(rawValue: 1 << 3)

    /// Every defined bit.
    public static let known: DiscoveryCapabilities = [.softAP, .ble, .onNetwork, .wifiPAF]

    /// The defined capabilities in bit order, with their JSON names and their command-line names.
    public static let named: [(capability: DiscoveryCapabilities, name: String, argument: String)] = [
        (.softAP, "softAP", "soft-ap"), (.ble, "ble", "ble"), (.onNetwork, "onNetwork", "on-network"),
        (.wifiPAF, "wifiPAF", "wifi-paf"),
    ]

    /// The bits set that no version of the specification this code knows defines.
    public var unknownBits: UInt8 { rawValue & ~Self.known.rawValue }

    /// The JSON names of the defined capabilities that are set, in bit order:
    /// `softAP`, `ble`, `onNetwork`, `wifiPAF`.
    public var names: [String] { Self.named.filter { contains($0.capability) }.map(\.name) }

    /// The capability named `argument` on the command line (`soft-ap`, `ble`, `on-network`,
    /// `wifi-paf`) or in JSON (`softAP`, …), or nil.
    public init?(name: String) {
        guard let entry = Self.named.first(where: { $0.argument == name || $0.name == name }) else { return nil }
        self = entry.capability
    }

    /// `ble, onNetwork`, plus `bits 0x30` for unknown bits; `none` when empty.
    public var description: String {
        var parts = names
        if unknownBits != 0 { parts.append("unknown bits 0x" + String(unknownBits, radix: 16, uppercase: true)) }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
