/// Which complete dataset a validation asks for.
public enum DatasetKind: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// An Active Operational Dataset: needs Active Timestamp, Channel, Channel Mask, Extended PAN ID,
    /// Mesh-Local Prefix, Network Key, Network Name, PAN ID, PSKc and Security Policy
    /// (OpenThread `Dataset::ContainsAllRequiredTlvsFor`).
    case active
    /// A Pending Operational Dataset: the Active TLVs plus Pending Timestamp and Delay Timer.
    case pending

    /// The TLV types a complete dataset of this kind must have, ascending.
    public var requiredTLVTypes: [TLVType] {
        let active: [TLVType] = [
            .channel, .panID, .extendedPANID, .networkName, .pskc, .networkKey, .meshLocalPrefix, .securityPolicy,
            .activeTimestamp, .channelMask,
        ]
        return self == .active ? active : active + [.pendingTimestamp, .delayTimer]
    }

    /// "Active" or "Pending".
    public var description: String { self == .active ? "Active" : "Pending" }
}
