// libFuzzer target for the `_meshcop._udp` TXT decoders (fuzz/run.sh txt SECONDS).
//
// Oracles, beyond "never crash": the decoded entries written back in wire format decode to the same
// entries and the same typed values; the ephemeral-key and Verhoeff checks never disagree.
import MeshCoP

@_cdecl("LLVMFuzzerTestOneInput")
public func txtFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []

    let record = MeshCoPTXTRecord(wireFormat: bytes)
    _ = record.description
    _ = record.problems.map(\.description)
    let again = MeshCoPTXTRecord(wireFormat: record.wireFormat)
    if again.entries != record.entries { fatalError("wire format round trip changed the entries") }
    if again.stateBitmap != record.stateBitmap || again.networkName != record.networkName
        || again.omrPrefix != record.omrPrefix || again.vendorEntries != record.vendorEntries
    {
        fatalError("wire format round trip changed the typed values")
    }
    if let sb = record.stateBitmap, StateBitmap(rawValue: sb.rawValue) != sb { fatalError("state bitmap") }

    // The same bytes as one entry's value for every key.
    for key in ["id", "rv", "sb", "tv", "xa", "xp", "nn", "pt", "at", "sq", "bb", "dn", "omr", "vn", "mn", "vo", "vx"] {
        _ = MeshCoPTXTRecord(entries: [(key: key, value: bytes)]).description
    }

    // Digits: an ephemeral key validates exactly when it is 9 characters and passes Verhoeff.
    let text = String(decoding: bytes, as: UTF8.self)
    let key = try? EphemeralKey(validating: text)
    if (key != nil) != (text.count == 9 && Verhoeff.isValid(text)) { fatalError("ephemeral key and Verhoeff disagree") }
    _ = try? Verhoeff.checkDigit(for: text)
    return 0
}
