/// The Border Agent state bitmap (TXT key `sb`, u32 big-endian; OpenThread
/// `border_agent_txt_data.cpp`, `TxtData::StateBitmap`).
///
/// | bits | field |
/// |---|---|
/// | 0–2 | connection mode |
/// | 3–4 | Thread interface status |
/// | 5–6 | availability |
/// | 7 | BBR function active |
/// | 8 | BBR is primary |
/// | 9–10 | Thread role |
/// | 11 | ePSKc supported |
///
/// Bits 12–31 (newer OpenThread's multi-AIL and admitter fields, whose offsets are not verified here)
/// are kept in ``rawValue`` and shown by ``unknownBits``.
public struct StateBitmap: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit value.
    public var rawValue: UInt32

    /// The bitmap with value `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A bitmap with the given fields and no other bits.
    public init(
        connectionMode: ConnectionMode, interfaceStatus: InterfaceStatus, availability: Availability,
        isBBRActive: Bool = false, isBBRPrimary: Bool = false, threadRole: ThreadRole = .disabledOrDetached,
        isEPSKcSupported: Bool = false
    ) {
        rawValue = 0
        self.connectionMode = connectionMode
        self.interfaceStatus = interfaceStatus
        self.availability = availability
        self.isBBRActive = isBBRActive
        self.isBBRPrimary = isBBRPrimary
        self.threadRole = threadRole
        self.isEPSKcSupported = isEPSKcSupported
    }

    /// Decodes the 4-byte TXT value.
    /// - Throws: ``ValueDecodingError/wrongLength(_:expected:)`` unless it is 4 bytes.
    public init(txtValue: [UInt8]) throws(ValueDecodingError) {
        guard txtValue.count == 4 else { throw .wrongLength(txtValue.count, expected: [4]) }
        rawValue = UInt32(truncatingIfNeeded: bigEndianValue(txtValue))
    }

    /// The 4-byte TXT value.
    public var txtValue: [UInt8] { bigEndianBytes(UInt64(rawValue), count: 4) }

    /// How a commissioner may connect (DTLS credential).
    public enum ConnectionMode: Hashable, Sendable {
        /// 0: DTLS connections are not allowed (the Border Agent is not running).
        case disabled
        /// 1: PSKc.
        case pskc
        /// 2: PSKd.
        case pskd
        /// 3: vendor-specific.
        case vendor
        /// 4: X.509.
        case x509
        /// 5–7: not defined.
        case other(UInt8)
    }

    /// The Thread interface status.
    public enum InterfaceStatus: Hashable, Sendable {
        /// 0: not initialised (role disabled).
        case notInitialized
        /// 1: initialised but not active (detached).
        case initialized
        /// 2: active (child, router or leader).
        case active
        /// 3: not defined.
        case other(UInt8)
    }

    /// How available the border router is.
    public enum Availability: Hashable, Sendable {
        /// 0: infrequent.
        case infrequent
        /// 1: high (what OpenThread always writes).
        case high
        /// 2–3: not defined.
        case other(UInt8)
    }

    /// The device's Thread role.
    public enum ThreadRole: UInt8, Hashable, Sendable, CaseIterable {
        /// 0: disabled or detached (also what older devices write without filling the field in).
        case disabledOrDetached = 0
        /// 1: child.
        case child = 1
        /// 2: router.
        case router = 2
        /// 3: leader.
        case leader = 3
    }

    /// Bits 0–2.
    public var connectionMode: ConnectionMode {
        get {
            switch field(0, 0x7) {
            case 0: .disabled
            case 1: .pskc
            case 2: .pskd
            case 3: .vendor
            case 4: .x509
            case let v: .other(v)
            }
        }
        set {
            let v: UInt8 = switch newValue {
            case .disabled: 0
            case .pskc: 1
            case .pskd: 2
            case .vendor: 3
            case .x509: 4
            case .other(let v): v
            }
            setField(0, 0x7, v)
        }
    }

    /// Bits 3–4.
    public var interfaceStatus: InterfaceStatus {
        get {
            switch field(3, 0x3) {
            case 0: .notInitialized
            case 1: .initialized
            case 2: .active
            case let v: .other(v)
            }
        }
        set {
            let v: UInt8 = switch newValue {
            case .notInitialized: 0
            case .initialized: 1
            case .active: 2
            case .other(let v): v
            }
            setField(3, 0x3, v)
        }
    }

    /// Bits 5–6.
    public var availability: Availability {
        get {
            switch field(5, 0x3) {
            case 0: .infrequent
            case 1: .high
            case let v: .other(v)
            }
        }
        set {
            let v: UInt8 = switch newValue {
            case .infrequent: 0
            case .high: 1
            case .other(let v): v
            }
            setField(5, 0x3, v)
        }
    }

    /// Bit 7: the Backbone Border Router function is active.
    public var isBBRActive: Bool {
        get { field(7, 1) == 1 }
        set { setField(7, 1, newValue ? 1 : 0) }
    }

    /// Bit 8: this is the primary Backbone Border Router.
    public var isBBRPrimary: Bool {
        get { field(8, 1) == 1 }
        set { setField(8, 1, newValue ? 1 : 0) }
    }

    /// Bits 9–10.
    public var threadRole: ThreadRole {
        get { ThreadRole(rawValue: field(9, 0x3)) ?? .disabledOrDetached }
        set { setField(9, 0x3, newValue.rawValue) }
    }

    /// Bit 11: the Border Agent supports ephemeral keys (ePSKc).
    public var isEPSKcSupported: Bool {
        get { field(11, 1) == 1 }
        set { setField(11, 1, newValue ? 1 : 0) }
    }

    /// The bits above bit 11, as they are in ``rawValue``.
    public var unknownBits: UInt32 { rawValue & ~0xFFF }

    private func field(_ shift: UInt32, _ mask: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: rawValue >> shift & mask) }

    private mutating func setField(_ shift: UInt32, _ mask: UInt32, _ value: UInt8) {
        rawValue = rawValue & ~(mask << shift) | (UInt32(value) & mask) << shift
    }

    /// "0x000001b1: connection PSKc, interface active, availability high, BBR active, BBR primary,
    /// role disabledOrDetached".
    public var description: String {
        var parts = [
            "connection \(connectionMode.name)", "interface \(interfaceStatus.name)", "availability \(availability.name)",
        ]
        if isBBRActive { parts.append("BBR active") }
        if isBBRPrimary { parts.append("BBR primary") }
        parts.append("role \(threadRole.name)")
        if isEPSKcSupported { parts.append("ePSKc supported") }
        if unknownBits != 0 { parts.append("unknown bits 0x" + hex8(unknownBits)) }
        return "0x\(hex8(rawValue)): " + parts.joined(separator: ", ")
    }
}

/// `value` as 8 lower-case hex digits.
func hex8(_ value: UInt32) -> String {
    let s = String(value, radix: 16)
    return String(repeating: "0", count: 8 - s.count) + s
}
