import MeshCoP

/// libFuzzer entry: every decoder of otbr-agent REST answers (Sources/OpenThreadREST/RESTDecoding.swift,
/// RESTTaskDecoding.swift, NetworkDiagnostics+Decoding.swift) on the same bytes; each must return a value
/// or throw, never crash or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? RESTDecoding.node(bytes)
    _ = try? RESTDecoding.string(bytes)
    _ = try? RESTDecoding.keyState(bytes)
    _ = try? RESTDecoding.grant(bytes)
    _ = try? RESTDecoding.wellKnown(bytes)
    _ = try? RESTDecoding.datasetHex(bytes)
    _ = RESTDecoding.problem(bytes)
    _ = try? RESTTaskDecoding.createdTasks(bytes)
    _ = try? RESTTaskDecoding.taskStates(bytes)
    _ = try? RESTTaskDecoding.devices(bytes)
    _ = try? NetworkDiagnostics.decode(bytes)
    return 0
}
