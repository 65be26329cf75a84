// libFuzzer target for TBRFoundation's JSON reader (fuzz/run.sh json SECONDS), which reads what a
// WebSocket client sends matter-sim. Oracles, beyond "never crash": a value read writes to text that
// reads back to the same value, compact and indented, and writing it again gives the same text.
import TBRFoundation

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let text = String(validating: bytes, as: UTF8.self), let value = try? JSON(parsing: text) else { return 0 }
    let compact = value.serialized
    guard let again = try? JSON(parsing: compact), again == value, again.serialized == compact else {
        fatalError("a value does not survive being written compact")
    }
    guard let fromIndented = try? JSON(parsing: value.indented), fromIndented == value else {
        fatalError("a value does not survive being written indented")
    }
    return 0
}
