import MeshCoP

/// The Thread network a simulated device joins: what its NetworkCommissioning and
/// ThreadNetworkDiagnostics attributes show. From the dataset `set_thread_dataset` gave when it
/// decodes (the real server does not check it: `"00"` is accepted), else a default network.
struct ThreadNetwork: Hashable, Sendable {
    var channel: UInt16 = 15
    var panID: UInt16 = 0x1234
    var extendedPANID: UInt64 = 0xDEAD_00BE_EF00_CAFE
    var networkName = "OpenThread"
    var meshLocalPrefix: [UInt8] = [0xFD, 0x00, 0x0D, 0xB8, 0x00, 0x00, 0x00, 0x00]

    /// The default network.
    init() {}

    /// The network of `dataset` (its TLVs as bytes); what it lacks keeps the default.
    init(dataset: [UInt8]) {
        guard let decoded = try? OperationalDataset(bytes: dataset) else { return }
        if let c = decoded.channel { channel = c.number }
        if let p = decoded.panID { panID = p.rawValue }
        if let x = decoded.extendedPANID { extendedPANID = x.rawValue }
        if let n = decoded.networkName { networkName = n.rawValue }
        if let m = decoded.meshLocalPrefix { meshLocalPrefix = m.bytes }
    }

    /// The extended PAN ID's 8 bytes, big-endian (the Thread network's ID in NetworkCommissioning).
    var extendedPANIDBytes: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: extendedPANID >> (56 - 8 * $0)) } }
}
