import MeshCoP
import TBRFoundation

/// Datasets in the REST API's JSON, both ways, as ot-br-posix's `json.cpp` writes and reads them
/// (`ActiveDataset2Json`, `PendingDataset2JsonString`, `JsonActiveDataset2Dataset`,
/// `JsonPendingDatasetString2Dataset`): only OpenThread's components (``DatasetRules/components``; the
/// Wake-up Channel is not written), keys from `names.hpp`, keys, PSKc and extended PAN ID as lower-case
/// hex, the PAN ID, channel and channel mask as numbers.
enum RESTDatasetJSON {
    // MARK: writing

    /// The object of an active dataset (also the `activeDataset` member of a pending one).
    static func active(_ d: OperationalDataset) -> JSON {
        var o = JSONObject()
        o["activeTimestamp"] = d.activeTimestamp.map(timestamp)
        o["networkKey"] = d.networkKey.map { .string(Hex.encode($0.bytes)) }
        o["networkName"] = d.networkName.map { .string($0.rawValue) }
        o["extPanId"] = d.extendedPANID.map { .string(Hex.encode($0.bytes)) }
        o["meshLocalPrefix"] = d.meshLocalPrefix.map { .string($0.description) }
        o["panId"] = d.panID.map { JSON($0.rawValue) }
        o["channel"] = d.channel.map { JSON($0.number) }
        o["pskc"] = d.pskc.map { .string(Hex.encode($0.bytes)) }
        o["securityPolicy"] = d.securityPolicy.map(securityPolicy)
        // OpenThread's 32-bit mask of page 0 (bit n = channel n), when the TLV has one.
        o["channelMask"] = d.channelMask?.entries.first { $0.page == 0 }?.openThreadMask.map { JSON($0) }
        return .object(o)
    }

    /// The object of a pending dataset: `activeDataset`, then `pendingTimestamp` and `delay` when present.
    static func pending(_ d: OperationalDataset) -> JSON {
        var o: JSONObject = ["activeDataset": active(d)]
        o["pendingTimestamp"] = d.pendingTimestamp.map(timestamp)
        o["delay"] = d.delayTimer.map { JSON($0.milliseconds) }
        return .object(o)
    }

    private static func timestamp(_ t: Timestamp) -> JSON {
        ["seconds": JSON(t.seconds), "ticks": JSON(t.ticks), "authoritative": .bool(t.isAuthoritative)]
    }

    private static func securityPolicy(_ p: SecurityPolicy) -> JSON {
        [
            "rotationTime": JSON(p.rotationTimeHours), "obtainNetworkKey": .bool(p.obtainNetworkKeyEnabled),
            "nativeCommissioning": .bool(p.nativeCommissioningEnabled), "routers": .bool(p.routersEnabled),
            "externalCommissioning": .bool(p.externalCommissioningEnabled),
            "commercialCommissioning": .bool(p.commercialCommissioningEnabled),
            "autonomousEnrollment": .bool(p.autonomousEnrollmentEnabled),
            "networkKeyProvisioning": .bool(p.networkKeyProvisioningEnabled), "tobleLink": .bool(p.tobleLinkEnabled),
            "nonCcmRouters": .bool(p.nonCCMRoutersEnabled),
        ]
    }

    // MARK: reading

    /// The components of an active dataset object, in ``DatasetRules/components`` order; nil for a body
    /// the agent answers 400: not a JSON object, an `activeTimestamp` that is neither an object nor
    /// `null` (or has a non-number `seconds`/`ticks`), a key, PSKc or extended PAN ID that is not hex of
    /// its length, a name longer than 16 bytes, a mesh-local prefix that is not one. A member of
    /// another type than expected is ignored, and `null` means absent, as in the agent.
    static func parseActive(_ json: JSON) -> OperationalDataset? {
        guard case .object(let o) = json, let tlvs = activeComponents(o) else { return nil }
        return DatasetRules.inComponentOrder(tlvs)
    }

    /// The components of a pending dataset object: `activeDataset` (an object as above, or TLVs as hex),
    /// `pendingTimestamp`, `delay`; nil for a body the agent answers 400. The caller checks that a
    /// delay is present (the agent answers 400 without one).
    static func parsePending(_ json: JSON) -> OperationalDataset? {
        guard case .object(let o) = json else { return nil }
        var d: OperationalDataset
        switch o["activeDataset"] {
        case .object(let inner)?:
            guard let parsed = activeComponents(inner) else { return nil }
            d = parsed
        case .string(let hex)?:
            guard let bytes = DatasetRules.otbrHex(hex, maximumBytes: OperationalDataset.maximumLength), !bytes.isEmpty,
                let decoded = DatasetRules.decode(bytes)
            else { return nil }
            d = decoded
        default:
            return nil
        }
        switch o["pendingTimestamp"] {
        case .object(let t)?:
            guard let stamp = timestamp(t) else { return nil }
            d.pendingTimestamp = stamp
        case .null?, nil: break
        default: return nil
        }
        if let ms = o["delay"].flatMap(cInt) { d.delayTimer = DelayTimer(milliseconds: UInt32(bitPattern: ms)) }
        return DatasetRules.inComponentOrder(d)
    }

    private static func activeComponents(_ o: JSONObject) -> OperationalDataset? {
        var d = OperationalDataset()
        switch o["activeTimestamp"] {
        case .object(let t)?:
            guard let stamp = timestamp(t) else { return nil }
            d.activeTimestamp = stamp
        case .null?, nil: break
        default: return nil
        }
        if case .string(let text)? = o["networkKey"] {
            guard let key = hexBytes(text, count: 16).flatMap({ NetworkKey(bytes: $0) }) else { return nil }
            d.networkKey = key
        }
        if case .string(let text)? = o["networkName"] {
            guard let name = NetworkName(text) else { return nil }
            d.networkName = name
        }
        if case .string(let text)? = o["extPanId"] {
            guard let xpan = hexBytes(text, count: 8).flatMap({ try? ExtendedPANID(tlvValue: $0) }) else { return nil }
            d.extendedPANID = xpan
        }
        if case .string(let text)? = o["meshLocalPrefix"] {
            // The agent keeps the first 64 bits of the address before the slash.
            guard let prefix = MeshLocalPrefix(String(text.prefix { $0 != "/" })) else { return nil }
            d.meshLocalPrefix = prefix
        }
        if let value = o["panId"].flatMap(cInt) { d.panID = PANID(UInt16(truncatingIfNeeded: value)) }
        if let value = o["channel"].flatMap(cInt) { d.channel = Channel(UInt16(truncatingIfNeeded: value)) }
        if case .string(let text)? = o["pskc"] {
            guard let pskc = hexBytes(text, count: 16).flatMap({ PSKc(bytes: $0) }) else { return nil }
            d.pskc = pskc
        }
        if case .object(let p)? = o["securityPolicy"] { d.securityPolicy = securityPolicy(p) }
        if let value = o["channelMask"].flatMap(cInt) {
            // Only page 0's channels are kept (`ChannelMaskTlv::PrepareValue`); none leaves an empty TLV.
            let mask = UInt32(bitPattern: value)
            let channels = Channel.page0Channels.filter { mask & (1 << UInt32($0)) != 0 }
            let entry = channels.isEmpty ? nil : ChannelMask.Entry(page: 0, channels: channels)
            d.channelMask = ChannelMask(entries: entry.map { [$0] } ?? [])
        }
        return d
    }

    /// `Json2Timestamp`: `seconds` and `ticks` numbers when present, `authoritative` true only when `true`.
    private static func timestamp(_ o: JSONObject) -> Timestamp? {
        var seconds: UInt64 = 0, ticks: UInt16 = 0
        if let value = o["seconds"] {
            guard let number = RESTAnswer.number(value) else { return nil }
            seconds = number > 0 ? UInt64(min(number, Double(Timestamp.maximumSeconds))) : 0
        }
        if let value = o["ticks"] {
            guard let number = cInt(value) else { return nil }
            ticks = UInt16(truncatingIfNeeded: number) & Timestamp.maximumTicks
        }
        return Timestamp(seconds: seconds, ticks: ticks, isAuthoritative: o["authoritative"] == .bool(true))
    }

    /// `Json2SecurityPolicy`: a missing rotation time is 0, a missing or non-`true` flag is off.
    private static func securityPolicy(_ o: JSONObject) -> SecurityPolicy {
        func on(_ key: String) -> Bool { o[key] == .bool(true) }
        let hours = o["rotationTime"].flatMap(cInt).map { UInt16(truncatingIfNeeded: $0) } ?? 0
        var p = SecurityPolicy(rotationTimeHours: hours, flagByte0: 0, flagByte1: SecurityPolicy.reservedMask)
        p.obtainNetworkKeyEnabled = on("obtainNetworkKey")
        p.nativeCommissioningEnabled = on("nativeCommissioning")
        p.routersEnabled = on("routers")
        p.externalCommissioningEnabled = on("externalCommissioning")
        p.commercialCommissioningEnabled = on("commercialCommissioning")
        p.autonomousEnrollmentEnabled = on("autonomousEnrollment")
        p.networkKeyProvisioningEnabled = on("networkKeyProvisioning")
        p.tobleLinkEnabled = on("tobleLink")
        p.nonCCMRoutersEnabled = on("nonCcmRouters")
        return p
    }

    /// Hex of exactly `count` bytes as the agent reads it (an odd digit count included).
    private static func hexBytes(_ text: String, count: Int) -> [UInt8]? {
        guard let bytes = DatasetRules.otbrHex(text, maximumBytes: count), bytes.count == count else { return nil }
        return bytes
    }

    /// A JSON number as cJSON's `valueint`: truncated, clamped to 32 bits; nil for anything else.
    private static func cInt(_ value: JSON) -> Int32? {
        guard let number = RESTAnswer.number(value), !number.isNaN else { return nil }
        return Int32(max(Double(Int32.min), min(Double(Int32.max), number.rounded(.towardZero))))
    }
}
