extension OperationalDataset {
    /// A complete Active dataset for a new network, like OpenThread's `dataset init new`, with random
    /// values from OpenSSL's CSPRNG (`RAND_bytes`) for everything not given:
    ///
    /// | TLV | value |
    /// |---|---|
    /// | Active Timestamp | seconds 1, ticks 0, not authoritative |
    /// | Channel | `channel`, else uniform in 11–26 on page 0 |
    /// | Channel Mask | page 0, channels 11–26 |
    /// | Extended PAN ID | `extendedPANID`, else 8 random bytes |
    /// | Mesh-Local Prefix | `meshLocalPrefix`, else a ULA `fdxx:xxxx:xxxx:0000::/64` (40 random bits, subnet 0) |
    /// | Network Key | 16 random bytes |
    /// | Network Name | `name`, else `OpenThread-<PAN ID as 4 lower-case hex digits>` |
    /// | PAN ID | `panID`, else random and never 0xFFFF |
    /// | PSKc | 16 random bytes |
    /// | Security Policy | 672 h, default flags (`02a0 f7 f8`) |
    ///
    /// Given values are used as they are; ``validate(as:)`` reports one a network cannot use.
    /// - Throws: ``CryptoError`` when the CSPRNG fails.
    public static func random(
        name: NetworkName? = nil, channel: Channel? = nil, panID: PANID? = nil,
        extendedPANID: ExtendedPANID? = nil, meshLocalPrefix: MeshLocalPrefix? = nil
    ) throws(CryptoError) -> OperationalDataset {
        var random = try LibCrypto.randomBytes(48)[...]
        func take(_ n: Int) -> [UInt8] {
            defer { random = random.dropFirst(n) }
            return Array(random.prefix(n))
        }
        var pan = panID ?? PANID(UInt16(bigEndianValue(take(2))))
        while pan == .broadcast { pan = PANID(UInt16(bigEndianValue(try LibCrypto.randomBytes(2)))) }
        // 256 is a multiple of 16, so `byte % 16` is uniform.
        let randomChannel = Channel(11 + UInt16(take(1)[0] % 16))
        let xpan = ExtendedPANID(bigEndianValue(take(8)))
        let prefix = MeshLocalPrefix(bigEndianValue([0xFD] + take(5) + [0, 0]))
        let key = NetworkKey(bytes: take(16)), pskc = PSKc(bytes: take(16))
        guard let key, let pskc else { throw CryptoError(function: "RAND_bytes", detail: "short output") }
        let defaultName = NetworkName("OpenThread-" + hex4(pan.rawValue))
        var dataset = OperationalDataset()
        dataset.activeTimestamp = Timestamp(rawValue: 1 << 16)
        dataset.channel = channel ?? randomChannel
        dataset.channelMask = .allPage0
        dataset.extendedPANID = extendedPANID ?? xpan
        dataset.meshLocalPrefix = meshLocalPrefix ?? prefix
        dataset.networkKey = key
        dataset.networkName = name ?? defaultName
        dataset.panID = pan
        dataset.pskc = pskc
        dataset.securityPolicy = SecurityPolicy()
        return dataset
    }
}
