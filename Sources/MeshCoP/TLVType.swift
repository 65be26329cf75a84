/// The type byte of a MeshCoP TLV (Thread 1.4 §8.10; OpenThread `meshcop_tlvs.hpp`).
///
/// Every value 0–255 is representable, so TLVs this module does not know keep their type.
public struct TLVType: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The type byte on the wire.
    public let rawValue: UInt8

    /// The TLV type with byte `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The TLV type with byte `rawValue`.
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// Channel (0): channel page and channel number.
    public static let channel = TLVType(0)
    /// PAN ID (1).
    public static let panID = TLVType(1)
    /// Extended PAN ID (2).
    public static let extendedPANID = TLVType(2)
    /// Network Name (3).
    public static let networkName = TLVType(3)
    /// PSKc (4).
    public static let pskc = TLVType(4)
    /// Network Key (5).
    public static let networkKey = TLVType(5)
    /// Network Key Sequence Counter (6).
    public static let networkKeySequenceCounter = TLVType(6)
    /// Mesh-Local Prefix (7).
    public static let meshLocalPrefix = TLVType(7)
    /// Steering Data (8).
    public static let steeringData = TLVType(8)
    /// Border Agent Locator (9).
    public static let borderAgentLocator = TLVType(9)
    /// Commissioner ID (10).
    public static let commissionerID = TLVType(10)
    /// Commissioner Session ID (11).
    public static let commissionerSessionID = TLVType(11)
    /// Security Policy (12).
    public static let securityPolicy = TLVType(12)
    /// Get (13).
    public static let get = TLVType(13)
    /// Active Timestamp (14).
    public static let activeTimestamp = TLVType(14)
    /// Commissioner UDP Port (15).
    public static let commissionerUDPPort = TLVType(15)
    /// State (16).
    public static let state = TLVType(16)
    /// Joiner DTLS Encapsulation (17).
    public static let joinerDTLSEncapsulation = TLVType(17)
    /// Joiner UDP Port (18).
    public static let joinerUDPPort = TLVType(18)
    /// Joiner IID (19).
    public static let joinerIID = TLVType(19)
    /// Joiner Router Locator (20).
    public static let joinerRouterLocator = TLVType(20)
    /// Joiner Router KEK (21).
    public static let joinerRouterKEK = TLVType(21)
    /// Duration (23).
    public static let duration = TLVType(23)
    /// Provisioning URL (32).
    public static let provisioningURL = TLVType(32)
    /// Vendor Name (33).
    public static let vendorName = TLVType(33)
    /// Vendor Model (34).
    public static let vendorModel = TLVType(34)
    /// Vendor SW Version (35).
    public static let vendorSoftwareVersion = TLVType(35)
    /// Vendor Data (36).
    public static let vendorData = TLVType(36)
    /// Vendor Stack Version (37).
    public static let vendorStackVersion = TLVType(37)
    /// UDP Encapsulation (48).
    public static let udpEncapsulation = TLVType(48)
    /// IPv6 Address (49).
    public static let ipv6Address = TLVType(49)
    /// Pending Timestamp (51).
    public static let pendingTimestamp = TLVType(51)
    /// Delay Timer (52).
    public static let delayTimer = TLVType(52)
    /// Channel Mask (53).
    public static let channelMask = TLVType(53)
    /// Count (54).
    public static let count = TLVType(54)
    /// Period (55).
    public static let period = TLVType(55)
    /// Scan Duration (56).
    public static let scanDuration = TLVType(56)
    /// Energy List (57).
    public static let energyList = TLVType(57)
    /// Thread Domain Name (59).
    public static let threadDomainName = TLVType(59)
    /// Wake-up Channel (74), Thread 1.4.
    public static let wakeUpChannel = TLVType(74)
    /// Discovery Request (128).
    public static let discoveryRequest = TLVType(128)
    /// Discovery Response (129).
    public static let discoveryResponse = TLVType(129)
    /// Joiner Advertisement (241).
    public static let joinerAdvertisement = TLVType(241)

    /// The specification's name of this type, or nil for a type this module does not know.
    public var name: String? {
        switch rawValue {
        case 0: "Channel"
        case 1: "PAN ID"
        case 2: "Extended PAN ID"
        case 3: "Network Name"
        case 4: "PSKc"
        case 5: "Network Key"
        case 6: "Network Key Sequence Counter"
        case 7: "Mesh-Local Prefix"
        case 8: "Steering Data"
        case 9: "Border Agent Locator"
        case 10: "Commissioner ID"
        case 11: "Commissioner Session ID"
        case 12: "Security Policy"
        case 13: "Get"
        case 14: "Active Timestamp"
        case 15: "Commissioner UDP Port"
        case 16: "State"
        case 17: "Joiner DTLS Encapsulation"
        case 18: "Joiner UDP Port"
        case 19: "Joiner IID"
        case 20: "Joiner Router Locator"
        case 21: "Joiner Router KEK"
        case 23: "Duration"
        case 32: "Provisioning URL"
        case 33: "Vendor Name"
        case 34: "Vendor Model"
        case 35: "Vendor SW Version"
        case 36: "Vendor Data"
        case 37: "Vendor Stack Version"
        case 48: "UDP Encapsulation"
        case 49: "IPv6 Address"
        case 51: "Pending Timestamp"
        case 52: "Delay Timer"
        case 53: "Channel Mask"
        case 54: "Count"
        case 55: "Period"
        case 56: "Scan Duration"
        case 57: "Energy List"
        case 59: "Thread Domain Name"
        case 74: "Wake-up Channel"
        case 128: "Discovery Request"
        case 129: "Discovery Response"
        case 241: "Joiner Advertisement"
        default: nil
        }
    }

    /// "3 (Network Name)", or "200 (unknown)" for a type without a name.
    public var description: String { "\(rawValue) (\(name ?? "unknown"))" }

    /// Orders by the wire value.
    public static func < (a: TLVType, b: TLVType) -> Bool { a.rawValue < b.rawValue }

    /// Decodes the type from a JSON number.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UInt8.self)
    }

    /// Encodes the type as a JSON number.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
