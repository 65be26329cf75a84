// libFuzzer target for the operational dataset decoders (fuzz/run.sh dataset SECONDS).
//
// Oracles, beyond "never crash": a dataset that decodes re-encodes to the same bytes; strict decoding
// succeeds exactly when the lenient scan finds no malformed TLV; every typed value that decodes
// re-encodes to the same bytes.
import MeshCoP

@_cdecl("LLVMFuzzerTestOneInput")
public func datasetFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []

    let strict = try? OperationalDataset(bytes: bytes)
    let problems = OperationalDataset.validate(bytes: bytes, as: nil)
    let malformed = problems.contains { if case .malformed = $0.reason { true } else { false } }
    if (strict != nil) == malformed { fatalError("strict decoding and the lenient scan disagree") }
    _ = OperationalDataset.validate(bytes: bytes, as: .active).map(\.description)
    _ = OperationalDataset.validate(bytes: bytes, as: .pending).map(\.description)

    if let dataset = strict {
        if dataset.encoded() != bytes { fatalError("re-encoding changed the bytes") }
        if (try? OperationalDataset(tlvs: dataset.tlvs)) != dataset { fatalError("rebuilding from TLVs failed") }
        _ = dataset.render(revealSecrets: true)
        _ = dataset.render(revealSecrets: false)
        _ = dataset.description
    } else {
        do { _ = try OperationalDataset(bytes: bytes) } catch { _ = error.description }
    }

    // Each value type on the whole input.
    func roundTrip<T: TLVValue>(_: T.Type) {
        if let v = try? T(tlvValue: bytes), v.tlvValue != bytes { fatalError("\(T.self) re-encoding changed the bytes") }
    }
    roundTrip(Channel.self)
    roundTrip(PANID.self)
    roundTrip(ExtendedPANID.self)
    roundTrip(NetworkName.self)
    roundTrip(PSKc.self)
    roundTrip(NetworkKey.self)
    roundTrip(MeshLocalPrefix.self)
    roundTrip(SecurityPolicy.self)
    roundTrip(Timestamp.self)
    roundTrip(DelayTimer.self)
    roundTrip(ChannelMask.self)
    if let mask = try? ChannelMask(tlvValue: bytes) { _ = mask.description }

    // The hex entry point and text parsers on the input as text.
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? OperationalDataset(hex: text)
    _ = MeshLocalPrefix(text)
    _ = PANID(text)
    return 0
}
