import Glibc
import TBRFoundation

/// A file holding a secret tbrd reads at start (`backup-passphrase-file`, `mqtt-password-file`): a regular
/// file, not a symbolic link, that no one else may read (mode 0600 or stricter) and that root or tbrd's
/// user owns. Otherwise tbrd refuses to start and says which and why.
enum SecretFile {
    /// The contents of the file at `path` (at most 4 KiB), named `setting` in the sentence when it is refused.
    static func read(_ path: String, setting: String) -> Result<[UInt8], SecretFileError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return .failure(SecretFileError("\(setting) \(path) cannot be read: \(Errno(errno))")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .failure(SecretFileError("\(setting) \(path) is not a regular file")) }
        guard info.st_mode & 0o077 == 0 else {
            return .failure(SecretFileError("\(setting) \(path) is mode \(String(info.st_mode & 0o777, radix: 8)): others may read it; make it 0600"))
        }
        guard info.st_uid == 0 || info.st_uid == geteuid() else {
            return .failure(SecretFileError("\(setting) \(path) is owned by uid \(info.st_uid): it must be owned by root or by tbrd's user"))
        }
        do { return .success(try FileDescriptorIO.readToEnd(fd, limit: 4096)) } catch { return .failure(SecretFileError("\(setting) \(path): \(error)")) }
    }
}

/// Why a secret file was refused, one sentence.
struct SecretFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
