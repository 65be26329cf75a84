/// The network's Security Policy (Security Policy TLV 12; OpenThread `SecurityPolicy`,
/// `key_manager.cpp`).
///
/// Wire format: key rotation time in hours (u16 big-endian), then one flag byte (Thread 1.1, 3 bytes)
/// or two (Thread 1.2 and later, 4 bytes). Several flags are *inverted* on the wire (the bit set means
/// the feature is off); the properties here always say "enabled". The flag bytes are stored as received,
/// so bits this type does not interpret (the reserved bits of byte 1) survive and re-encoding is exact.
///
/// | byte | bit | flag |
/// |---|---|---|
/// | 0 | 0x80 | O obtain network key |
/// | 0 | 0x40 | N native commissioning |
/// | 0 | 0x20 | R Thread 1.0/1.1 routers |
/// | 0 | 0x10 | C external commissioning |
/// | 0 | 0x08 | B beacons (older OpenThread; newer writes 0) |
/// | 0 | 0x04 | CCM commercial commissioning, **disabled when set** |
/// | 0 | 0x02 | AE autonomous enrollment, **disabled when set** |
/// | 0 | 0x01 | NP network key provisioning, **disabled when set** |
/// | 1 | 0x80 | L ToBLE link |
/// | 1 | 0x40 | NCR non-CCM routers, **disabled when set** |
/// | 1 | 0x38 | reserved, written as 1s |
/// | 1 | 0x07 | VR version threshold for routing |
public struct SecurityPolicy: TLVValue {
    /// Key rotation time in hours (default 672, four weeks).
    public var rotationTimeHours: UInt16
    /// Flag byte 0 as on the wire.
    public var flagByte0: UInt8
    /// Flag byte 1 as on the wire, or nil in the 3-byte Thread 1.1 form (then its fields read as the
    /// defaults of ``defaultFlagByte1``; setting one of them adds the byte).
    public var flagByte1: UInt8?

    /// Today's default flag byte 0: O N R C set, CCM/AE/NP off (bits set), B clear: 0xF7.
    public static let defaultFlagByte0: UInt8 = 0xF7
    /// The default flag byte 1: ToBLE on, non-CCM routers off, reserved bits set, VR 0: 0xF8.
    public static let defaultFlagByte1: UInt8 = 0xF8
    /// The default rotation time: 672 hours.
    public static let defaultRotationTimeHours: UInt16 = 672
    /// The reserved bits of flag byte 1.
    public static let reservedMask: UInt8 = 0x38

    /// The default policy OpenThread uses for a new network: `02a0 f7 f8`.
    public init() {
        self.init(rotationTimeHours: Self.defaultRotationTimeHours, flagByte0: Self.defaultFlagByte0,
                  flagByte1: Self.defaultFlagByte1)
    }

    /// A policy from its wire fields.
    public init(rotationTimeHours: UInt16, flagByte0: UInt8, flagByte1: UInt8?) {
        self.rotationTimeHours = rotationTimeHours
        self.flagByte0 = flagByte0
        self.flagByte1 = flagByte1
    }

    /// Decodes the 3- or 4-byte value.
    /// - Throws: ``ValueDecodingError/wrongLength(_:expected:)`` for any other length.
    public init(tlvValue: [UInt8]) throws(ValueDecodingError) {
        guard tlvValue.count == 3 || tlvValue.count == 4 else { throw .wrongLength(tlvValue.count, expected: [3, 4]) }
        rotationTimeHours = UInt16(tlvValue[0]) << 8 | UInt16(tlvValue[1])
        flagByte0 = tlvValue[2]
        flagByte1 = tlvValue.count == 4 ? tlvValue[3] : nil
    }

    /// The 3- or 4-byte value, exactly as decoded.
    public var tlvValue: [UInt8] {
        var v = [UInt8(rotationTimeHours >> 8), UInt8(truncatingIfNeeded: rotationTimeHours), flagByte0]
        if let flagByte1 { v.append(flagByte1) }
        return v
    }

    // MARK: byte 0

    /// O: the network key may be obtained by commissioners/tools.
    public var obtainNetworkKeyEnabled: Bool {
        get { flagByte0 & 0x80 != 0 }
        set { flagByte0 = Self.setting(flagByte0, 0x80, newValue) }
    }
    /// N: native commissioning (PSKc-based) is allowed.
    public var nativeCommissioningEnabled: Bool {
        get { flagByte0 & 0x40 != 0 }
        set { flagByte0 = Self.setting(flagByte0, 0x40, newValue) }
    }
    /// R: Thread 1.0/1.1 devices may become routers.
    public var routersEnabled: Bool {
        get { flagByte0 & 0x20 != 0 }
        set { flagByte0 = Self.setting(flagByte0, 0x20, newValue) }
    }
    /// C: external commissioners may connect.
    public var externalCommissioningEnabled: Bool {
        get { flagByte0 & 0x10 != 0 }
        set { flagByte0 = Self.setting(flagByte0, 0x10, newValue) }
    }
    /// B: beacons enabled; only older OpenThread writes this bit (newer writes 0, hence 0xF7).
    public var beaconsEnabled: Bool {
        get { flagByte0 & 0x08 != 0 }
        set { flagByte0 = Self.setting(flagByte0, 0x08, newValue) }
    }
    /// CCM: commercial commissioning is enabled (wire bit 0x04 is **clear**).
    public var commercialCommissioningEnabled: Bool {
        get { flagByte0 & 0x04 == 0 }
        set { flagByte0 = Self.setting(flagByte0, 0x04, !newValue) }
    }
    /// AE: autonomous enrollment is enabled (wire bit 0x02 is **clear**).
    public var autonomousEnrollmentEnabled: Bool {
        get { flagByte0 & 0x02 == 0 }
        set { flagByte0 = Self.setting(flagByte0, 0x02, !newValue) }
    }
    /// NP: network key provisioning is enabled (wire bit 0x01 is **clear**).
    public var networkKeyProvisioningEnabled: Bool {
        get { flagByte0 & 0x01 == 0 }
        set { flagByte0 = Self.setting(flagByte0, 0x01, !newValue) }
    }

    // MARK: byte 1

    /// L: the ToBLE link is enabled.
    public var tobleLinkEnabled: Bool {
        get { byte1 & 0x80 != 0 }
        set { flagByte1 = Self.setting(byte1, 0x80, newValue) }
    }
    /// NCR: non-CCM routers are enabled (wire bit 0x40 is **clear**).
    public var nonCCMRoutersEnabled: Bool {
        get { byte1 & 0x40 == 0 }
        set { flagByte1 = Self.setting(byte1, 0x40, !newValue) }
    }
    /// VR: the version threshold for routing, 0–7 (the 3 low bits of byte 1; larger values are cut).
    public var versionThresholdForRouting: UInt8 {
        get { byte1 & 0x07 }
        set { flagByte1 = byte1 & ~0x07 | newValue & 0x07 }
    }
    /// The reserved bits of byte 1 (mask 0x38) as they are; OpenThread writes them as 1s.
    public var reservedBits: UInt8 { byte1 & Self.reservedMask }

    /// Flag byte 1, or its default in the 3-byte form.
    private var byte1: UInt8 { flagByte1 ?? Self.defaultFlagByte1 }

    private static func setting(_ byte: UInt8, _ mask: UInt8, _ on: Bool) -> UInt8 {
        on ? byte | mask : byte & ~mask
    }

    /// The names of the enabled features, in wire order.
    public var enabledFeatureNames: [String] {
        var names: [String] = []
        if obtainNetworkKeyEnabled { names.append("obtain network key") }
        if nativeCommissioningEnabled { names.append("native commissioning") }
        if routersEnabled { names.append("routers") }
        if externalCommissioningEnabled { names.append("external commissioning") }
        if beaconsEnabled { names.append("beacons") }
        if commercialCommissioningEnabled { names.append("commercial commissioning") }
        if autonomousEnrollmentEnabled { names.append("autonomous enrollment") }
        if networkKeyProvisioningEnabled { names.append("network key provisioning") }
        if tobleLinkEnabled { names.append("ToBLE link") }
        if nonCCMRoutersEnabled { names.append("non-CCM routers") }
        return names
    }
}

extension SecurityPolicy: CustomStringConvertible {
    /// "672 h; obtain network key, native commissioning, routers, external commissioning, ToBLE link;
    /// version threshold 0".
    public var description: String {
        let names = enabledFeatureNames
        return "\(rotationTimeHours) h; \(names.isEmpty ? "no flags" : names.joined(separator: ", "));"
            + " version threshold \(versionThresholdForRouting)"
            + (flagByte1 == nil ? " (Thread 1.1 form)" : "")
    }
}
