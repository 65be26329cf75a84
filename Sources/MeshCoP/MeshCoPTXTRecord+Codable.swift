/// JSON form: every typed key by name (camelCase; bytes as hex), the raw `entries` and the `problems`:
///
/// ```json
/// {"borderAgentId": "230c6a1ac57f6f4be262acf32e5ef52c", "recordVersion": "1",
///  "stateBitmap": {"raw": "0x000001b1", "connectionMode": "pskc", …}, "threadVersion": "1.3.0",
///  "extendedAddress": "aeeb2f594b570bbf", "extPanId": "e60fc7c186212ce5", "networkName": "…",
///  "partitionId": 2399555966, "activeTimestamp": {"seconds": 1, "ticks": 0, "authoritative": false},
///  "bbrSequenceNumber": 51, "bbrPort": 61631, "domainName": "DefaultDomain",
///  "omrPrefix": "fd20:be89:495a:1::/64", "vendorName": "…", "modelName": "…", "vendorOui": "0x001122",
///  "vendorEntries": […], "unknownEntries": […], "entries": [{"key": "rv", "value": "31"}, …],
///  "problems": [{"key": "sb", "message": "…"}]}
/// ```
///
/// Decoding reads `entries` alone and decodes them again; the other fields are derived.
extension MeshCoPTXTRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case borderAgentID = "borderAgentId", recordVersion, stateBitmap, threadVersion, extendedAddress
        case extendedPANID = "extPanId", networkName, partitionID = "partitionId", activeTimestamp
        case bbrSequenceNumber, bbrPort, domainName, omrPrefix, vendorName, modelName, vendorOUI = "vendorOui"
        case vendorEntries, unknownEntries, entries, problems
    }

    /// Decodes the `entries` of the JSON form and decodes them as a TXT record again.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(entries: try c.decode([TXTEntry].self, forKey: .entries))
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(borderAgentID, forKey: .borderAgentID)
        try c.encodeIfPresent(recordVersion, forKey: .recordVersion)
        try c.encodeIfPresent(stateBitmap, forKey: .stateBitmap)
        try c.encodeIfPresent(threadVersion, forKey: .threadVersion)
        try c.encodeIfPresent(extendedAddress, forKey: .extendedAddress)
        try c.encodeIfPresent(extendedPANID, forKey: .extendedPANID)
        try c.encodeIfPresent(networkName, forKey: .networkName)
        try c.encodeIfPresent(partitionID, forKey: .partitionID)
        try c.encodeIfPresent(activeTimestamp, forKey: .activeTimestamp)
        try c.encodeIfPresent(bbrSequenceNumber, forKey: .bbrSequenceNumber)
        try c.encodeIfPresent(bbrPort, forKey: .bbrPort)
        try c.encodeIfPresent(domainName, forKey: .domainName)
        try c.encodeIfPresent(omrPrefix, forKey: .omrPrefix)
        try c.encodeIfPresent(vendorName, forKey: .vendorName)
        try c.encodeIfPresent(modelName, forKey: .modelName)
        try c.encodeIfPresent(vendorOUI.map { "0x" + String(hex8($0).dropFirst(2)) }, forKey: .vendorOUI)
        try c.encode(vendorEntries, forKey: .vendorEntries)
        try c.encode(unknownEntries, forKey: .unknownEntries)
        try c.encode(entries, forKey: .entries)
        try c.encode(problems, forKey: .problems)
    }
}
