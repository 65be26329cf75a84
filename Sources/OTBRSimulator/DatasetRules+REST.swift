import MeshCoP

/// What the REST API's dataset writes do to TLVs (ot-br-posix `RestWebServer::SetDataset`, OpenThread's
/// `otDatasetCreateNewNetwork`, `otDatasetParseTlvs` and `otDatasetUpdateTlvs`).
extension DatasetRules {
    /// The TLV types OpenThread reads into an `otOperationalDataset` (`Dataset::ConvertTo(Info&)`), in
    /// the order it writes them back (`Dataset::WriteTlvsFrom(const Info&)`). Other types are not
    /// components: a dataset written through the REST API loses them.
    static let components: [TLVType] = [
        .activeTimestamp, .pendingTimestamp, .delayTimer, .channel, .wakeUpChannel, .channelMask, .extendedPANID,
        .meshLocalPrefix, .networkKey, .networkName, .panID, .pskc, .securityPolicy,
    ]

    /// A new network's Active dataset, as `otDatasetCreateNewNetwork` then `otDatasetConvertToTlvs`
    /// make it: ``OperationalDataset/random(name:channel:panID:extendedPANID:meshLocalPrefix:)`` plus a
    /// Wake-up Channel (Thread 1.4; a random channel of 11–26, page 0), in ``components`` order, so
    /// the Wake-up Channel TLV (`4A 03 00 00 xx`) comes third, after the Active Timestamp and the Channel.
    /// - Throws: ``CryptoError`` when the CSPRNG fails.
    static func newNetwork() throws(CryptoError) -> [UInt8] {
        var dataset = try OperationalDataset.random()
        dataset.wakeUpChannel = Channel(UInt16.random(in: Channel.page0Channels))
        return inComponentOrder(dataset).encoded()
    }

    /// `otDatasetUpdateTlvs(update, tlvs)`: each component `update` has replaces the TLV of its type in
    /// `tlvs` — removed, then appended at the end, in ``components`` order — and TLVs of `tlvs` that
    /// `update` lacks keep their place. TLVs of other types in `update` are dropped (`otDatasetParseTlvs`
    /// keeps only components). Nil when the result passes 254 bytes (`NoBufs`) or `tlvs` are not TLVs.
    static func update(_ tlvs: [UInt8], with update: OperationalDataset) -> [UInt8]? {
        guard var merged = decode(tlvs) else { return nil }
        for type in components {
            guard let tlv = update[type] else { continue }
            merged.remove(type)
            merged.set(tlv)
        }
        let bytes = merged.encoded()
        return bytes.count <= OperationalDataset.maximumLength ? bytes : nil
    }

    /// `dataset`'s components in ``components`` order (what `Dataset::SetFrom(const Info&)` writes).
    static func inComponentOrder(_ dataset: OperationalDataset) -> OperationalDataset {
        var ordered = OperationalDataset()
        for type in components { if let tlv = dataset[type] { ordered.set(tlv) } }
        return ordered
    }

    /// Hex as ot-br-posix reads it (`Utils::Hex2Bytes`): upper- or lower-case digits only (no spaces, no
    /// `0x`); an odd count reads the first digit as a byte of its own (`abc` is `0a bc`). Nil for
    /// another character or more than `maximumBytes` bytes.
    static func otbrHex(_ text: some StringProtocol, maximumBytes: Int) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard (digits.count + 1) / 2 <= maximumBytes else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((digits.count + 1) / 2)
        var value: UInt8 = 0
        var pending = digits.count % 2 == 1
        for c in digits {
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | nibble
            if pending {
                bytes.append(value)
                value = 0
            }
            pending.toggle()
        }
        return bytes
    }
}
