import TBRFoundation

/// JSON form: camelCase keys close to OTBR's REST API (`activeTimestamp`, `channel`, `channelMask`,
/// `extPanId`, `meshLocalPrefix`, `networkKey`, `networkName`, `panId`, `pskc`, `securityPolicy`, …),
/// plus `otherTLVs` for the TLVs without a typed value. Absent TLVs are absent keys. Secrets are
/// ``Secrets/redacted`` unless the encoder's `userInfo[.revealSecrets]` is `true` (see ``Secrets``).
///
/// ```json
/// {"activeTimestamp": {"seconds": 1, "ticks": 0, "authoritative": false},
///  "channel": {"page": 0, "number": 15},
///  "channelMask": [{"page": 0, "channels": [11, 12, …, 26]}],
///  "extPanId": "1111111122222222", "meshLocalPrefix": "fdad:70bf:e5aa:15dd::/64",
///  "networkKey": "<redacted>", "networkName": "OpenThreadDemo", "panId": 4660, "pskc": "<redacted>",
///  "securityPolicy": {"rotationTimeHours": 672, "obtainNetworkKey": true, …},
///  "otherTLVs": [{"type": 189, "value": "abcdef"}]}
/// ```
///
/// Decoding builds the TLVs in the order of ``canonicalOrder``, then `otherTLVs` in their order; wire
/// order is not part of the JSON.
extension OperationalDataset: Codable {
    /// The order in which JSON decoding (and ``render(revealSecrets:)``) puts the typed TLVs.
    public static let canonicalOrder: [TLVType] = [
        .activeTimestamp, .pendingTimestamp, .delayTimer, .channel, .wakeUpChannel, .channelMask, .extendedPANID,
        .meshLocalPrefix, .networkKey, .networkName, .panID, .pskc, .securityPolicy,
    ]

    private enum CodingKeys: String, CodingKey {
        case activeTimestamp, pendingTimestamp, delayTimer, channel, wakeUpChannel, channelMask
        case extendedPANID = "extPanId", meshLocalPrefix, networkKey, networkName
        case panID = "panId", pskc, securityPolicy, otherTLVs
    }

    private struct OtherTLV: Codable {
        var type: TLVType
        var name: String?
        var value: String
    }

    /// Decodes the JSON form described above.
    /// - Throws: `DecodingError` for a malformed or redacted value, or a type given twice.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var tlvs: [DatasetTLV] = []
        func add<T: Decodable>(_ key: CodingKeys, _ make: (T) -> DatasetTLV) throws {
            if let v = try c.decodeIfPresent(T.self, forKey: key) { tlvs.append(make(v)) }
        }
        try add(.activeTimestamp, DatasetTLV.activeTimestamp)
        try add(.pendingTimestamp, DatasetTLV.pendingTimestamp)
        try add(.delayTimer, DatasetTLV.delayTimer)
        try add(.channel, DatasetTLV.channel)
        try add(.wakeUpChannel, DatasetTLV.wakeUpChannel)
        try add(.channelMask, DatasetTLV.channelMask)
        try add(.extendedPANID, DatasetTLV.extendedPANID)
        try add(.meshLocalPrefix, DatasetTLV.meshLocalPrefix)
        try add(.networkKey, DatasetTLV.networkKey)
        try add(.networkName, DatasetTLV.networkName)
        try add(.panID, DatasetTLV.panID)
        try add(.pskc, DatasetTLV.pskc)
        try add(.securityPolicy, DatasetTLV.securityPolicy)
        for other in try c.decodeIfPresent([OtherTLV].self, forKey: .otherTLVs) ?? [] {
            guard let value = try? Hex.decode(other.value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .otherTLVs, in: c, debugDescription: "TLV \(other.type) value is not hex")
            }
            do {
                tlvs.append(try DatasetTLV(type: other.type, value: value))
            } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .otherTLVs, in: c, debugDescription: "TLV \(other.type): \(error)")
            }
        }
        do {
            try self.init(tlvs: tlvs)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .otherTLVs, in: c, debugDescription: error.description)
        }
    }

    /// Encodes the JSON form described above, typed TLVs in ``canonicalOrder``.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(activeTimestamp, forKey: .activeTimestamp)
        try c.encodeIfPresent(pendingTimestamp, forKey: .pendingTimestamp)
        try c.encodeIfPresent(delayTimer, forKey: .delayTimer)
        try c.encodeIfPresent(channel, forKey: .channel)
        try c.encodeIfPresent(wakeUpChannel, forKey: .wakeUpChannel)
        try c.encodeIfPresent(channelMask, forKey: .channelMask)
        try c.encodeIfPresent(extendedPANID, forKey: .extendedPANID)
        try c.encodeIfPresent(meshLocalPrefix, forKey: .meshLocalPrefix)
        try c.encodeIfPresent(networkKey, forKey: .networkKey)
        try c.encodeIfPresent(networkName, forKey: .networkName)
        try c.encodeIfPresent(panID, forKey: .panID)
        try c.encodeIfPresent(pskc, forKey: .pskc)
        try c.encodeIfPresent(securityPolicy, forKey: .securityPolicy)
        let others = otherTLVs.map { OtherTLV(type: $0.type, name: $0.type.name, value: Hex.encode($0.value)) }
        if !others.isEmpty { try c.encode(others, forKey: .otherTLVs) }
    }
}
