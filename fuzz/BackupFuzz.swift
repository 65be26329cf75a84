// libFuzzer target for a backup's reader (fuzz/run.sh backup SECONDS): the sealed file's header and
// opening, and the contents' JSON, both what `tbrctl backup restore` reads from a file anyone may have
// handed over. Oracles, beyond "never crash": a refusal is a BackupFileError with its sentence; contents
// that decode encode to JSON that decodes to the same contents.
import Foundation
import TBRBackup

@_cdecl("LLVMFuzzerTestOneInput")
public func backupFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // The file: only a header asking scrypt for little is opened (a costly one is checked, not derived).
    if let header = try? BackupFile.readHeader(bytes), header.cost.memoryBytes <= 2 << 20 {
        do {
            _ = try BackupCodec.open(bytes, passphrase: Array("fuzzing passphrase".utf8))
        } catch {
            if error.description.isEmpty { fatalError("a refusal without a sentence") }
        }
    }
    // The contents, as an opened backup holds them.
    guard let contents = try? BackupCodec.decode(bytes) else { return 0 }
    guard let json = try? JSONEncoder().encode(contents), let again = try? BackupCodec.decode(Array(json)), again == contents else {
        fatalError("contents do not survive being written again")
    }
    return 0
}
