import TBRFoundation

extension OperationalDataset {
    /// A human-readable table, one TLV per line, for `tbrctl dataset decode` and `dataset show`:
    ///
    /// ```
    /// Active Timestamp   1 (ticks 0, not authoritative)
    /// Channel            15 (page 0)
    /// Channel Mask       page 0: 11–26
    /// Extended PAN ID    1111111122222222
    /// Mesh-Local Prefix  fdad:70bf:e5aa:15dd::/64
    /// Network Key        <redacted>
    /// Network Name       OpenThreadDemo
    /// PAN ID             0x1234
    /// PSKc               <redacted>
    /// Security Policy    672 h; obtain network key, native commissioning, routers, …; version threshold 0
    /// ```
    ///
    /// Typed TLVs come in ``canonicalOrder``, then the others in wire order as hex ("TLV 189" for an
    /// unknown type). Control characters in the network name are escaped.
    /// - Parameter revealSecrets: print the network key and PSKc as hex instead of ``Secrets/redacted``.
    /// - Returns: the lines joined with "\n", without a final newline.
    public func render(revealSecrets: Bool = false) -> String {
        let typed = tlvs.filter { if case .other = $0 { false } else { true } }
        let ordered = Self.canonicalOrder.compactMap { type in typed.first { $0.type == type } }
            + tlvs.filter { if case .other = $0 { true } else { false } }
        return ordered.map { tlv in
            let label = tlv.type.name ?? "TLV \(tlv.type.rawValue)"
            let padded = label.count < 18 ? label + String(repeating: " ", count: 19 - label.count) : label + "  "
            return padded + Self.renderValue(tlv, revealSecrets: revealSecrets)
        }.joined(separator: "\n")
    }

    private static func renderValue(_ tlv: DatasetTLV, revealSecrets: Bool) -> String {
        switch tlv {
        case .activeTimestamp(let t), .pendingTimestamp(let t): t.description
        case .delayTimer(let d): d.description
        case .channel(let c), .wakeUpChannel(let c): c.description
        case .channelMask(let m): m.description
        case .panID(let p): p.description
        case .extendedPANID(let x): x.description
        case .networkName(let n): n.printable
        case .pskc(let k): revealSecrets ? k.hexString : Secrets.redacted
        case .networkKey(let k): revealSecrets ? k.hexString : Secrets.redacted
        case .meshLocalPrefix(let m): m.description
        case .securityPolicy(let s): s.description
        case .other(_, let value): value.isEmpty ? "(empty)" : Hex.encode(value)
        }
    }
}
