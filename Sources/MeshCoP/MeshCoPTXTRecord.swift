/// The TXT record of a Border Agent's `_meshcop._udp` service (OpenThread
/// `border_agent_txt_data.cpp`; OTBR puts its vendor entries in front).
///
/// Decoding is lenient and total: every key the reference defines is typed, vendor keys (`v…`) and
/// unknown keys are kept raw, and a malformed value for one key becomes a ``TXTProblem`` without losing
/// the other keys. Keys compare case-insensitively and only the first of a repeated key counts
/// (RFC 6763 §6.4). Nothing in it is secret.
public struct MeshCoPTXTRecord: Hashable, Sendable, CustomStringConvertible {
    /// Every entry, in order, as received.
    public private(set) var entries: [TXTEntry]
    /// What was wrong, in order.
    public private(set) var problems: [TXTProblem] = []

    /// `id`: the Border Agent ID (16 bytes).
    public private(set) var borderAgentID: BorderAgentID?
    /// `rv`: the TXT record version (string, "1").
    public private(set) var recordVersion: String?
    /// `sb`: the state bitmap (u32).
    public private(set) var stateBitmap: StateBitmap?
    /// `tv`: the Thread version (string, e.g. "1.3.0").
    public private(set) var threadVersion: String?
    /// `xa`: the border router's extended address (8 bytes).
    public private(set) var extendedAddress: ExtendedAddress?
    /// `xp`: the network's extended PAN ID (8 bytes).
    public private(set) var extendedPANID: ExtendedPANID?
    /// `nn`: the network name (UTF-8, at most 16 bytes).
    public private(set) var networkName: NetworkName?
    /// `pt`: the partition ID (u32).
    public private(set) var partitionID: UInt32?
    /// `at`: the active timestamp (8 bytes, same format as the Active Timestamp TLV).
    public private(set) var activeTimestamp: Timestamp?
    /// `sq`: the Backbone Border Router sequence number (1 byte).
    public private(set) var bbrSequenceNumber: UInt8?
    /// `bb`: the Backbone Border Router UDP port (u16, normally 61631).
    public private(set) var bbrPort: UInt16?
    /// `dn`: the Thread domain name (string).
    public private(set) var domainName: String?
    /// `omr`: the favoured off-mesh-routable prefix.
    public private(set) var omrPrefix: OMRPrefix?
    /// `vn`: the vendor name (string).
    public private(set) var vendorName: String?
    /// `mn`: the model name (string).
    public private(set) var modelName: String?
    /// `vo`: the vendor OUI (3 bytes, as a number).
    public private(set) var vendorOUI: UInt32?
    /// Other vendor keys (starting with "v"), raw, in order.
    public private(set) var vendorEntries: [TXTEntry] = []
    /// Keys this module does not know (not starting with "v"), raw, in order.
    public private(set) var unknownEntries: [TXTEntry] = []

    /// Decodes a TXT record given as (key, value) pairs, as a DNS-SD browser hands them over.
    public init(entries: [(key: String, value: [UInt8])]) {
        self.init(entries: entries.map { TXTEntry(key: $0.key, value: $0.value) }, problems: [])
    }

    /// Decodes a TXT record given as entries.
    public init(entries: [TXTEntry]) { self.init(entries: entries, problems: []) }

    init(entries: [TXTEntry], problems: [TXTProblem]) {
        self.entries = entries
        self.problems = problems
        var seen: Set<String> = []
        for entry in entries {
            guard Self.isValidKey(entry.key) else {
                self.problems.append(TXTProblem(key: entry.key, reason: .invalidKey))
                continue
            }
            let key = entry.key.lowercased()
            guard seen.insert(key).inserted else {
                self.problems.append(TXTProblem(key: entry.key, reason: .duplicateKey))
                continue
            }
            do throws(ValueDecodingError) {
                try apply(key: key, entry: entry)
            } catch {
                self.problems.append(TXTProblem(key: entry.key, reason: .malformedValue(error)))
            }
        }
    }

    private mutating func apply(key: String, entry: TXTEntry) throws(ValueDecodingError) {
        let v = entry.value
        switch key {
        case "id": borderAgentID = try BorderAgentID(bytes: v)
        case "rv": recordVersion = try Self.text(v)
        case "sb": stateBitmap = try StateBitmap(txtValue: v)
        case "tv": threadVersion = try Self.text(v)
        case "xa": extendedAddress = try ExtendedAddress(bytes: v)
        case "xp": extendedPANID = try ExtendedPANID(tlvValue: v)
        case "nn": networkName = try NetworkName(tlvValue: v)
        case "pt": partitionID = UInt32(truncatingIfNeeded: try Self.integer(v, bytes: 4))
        case "at": activeTimestamp = try Timestamp(tlvValue: v)
        case "sq": bbrSequenceNumber = UInt8(truncatingIfNeeded: try Self.integer(v, bytes: 1))
        case "bb": bbrPort = UInt16(truncatingIfNeeded: try Self.integer(v, bytes: 2))
        case "dn": domainName = try Self.text(v)
        case "omr": omrPrefix = try OMRPrefix(txtValue: v)
        case "vn": vendorName = try Self.text(v)
        case "mn": modelName = try Self.text(v)
        case "vo": vendorOUI = UInt32(truncatingIfNeeded: try Self.integer(v, bytes: 3))
        case _ where key.hasPrefix("v"): vendorEntries.append(entry)
        default: unknownEntries.append(entry)
        }
    }

    /// RFC 6763 §6.4: at least one printable US-ASCII character (0x20–0x7E), no "=".
    private static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "=") }
    }

    private static func text(_ bytes: [UInt8]) throws(ValueDecodingError) -> String {
        guard let s = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return s
    }

    private static func integer(_ bytes: [UInt8], bytes count: Int) throws(ValueDecodingError) -> UInt64 {
        guard bytes.count == count else { throw .wrongLength(bytes.count, expected: [count]) }
        return bigEndianValue(bytes)
    }

    /// A one-line summary: network name, extended PAN ID, state and problem count.
    public var description: String {
        var parts: [String] = []
        if let networkName { parts.append("nn \"\(networkName.printable)\"") }
        if let extendedPANID { parts.append("xp \(extendedPANID)") }
        if let extendedAddress { parts.append("xa \(extendedAddress)") }
        if let stateBitmap { parts.append("sb \(stateBitmap)") }
        if !problems.isEmpty { parts.append("\(problems.count) problem\(problems.count == 1 ? "" : "s")") }
        return "MeshCoPTXTRecord(\(parts.joined(separator: "; ")))"
    }
}
