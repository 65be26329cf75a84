public import Glibc

/// A file replaced whole or not at all: written to a temporary file beside it, flushed to the disk,
/// renamed over it, and the directory flushed, so a crash or a full disk leaves the old file as it was.
public enum AtomicFile {
    /// Writes `bytes` to `path` with `mode` through `path` + `.new`.
    /// - Throws: ``Errno`` of the step that failed (the temporary file is removed then).
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws(Errno) {
        let temporary = path + ".new"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Errno(errno) }
        var failure = FileDescriptorIO.writeAll(bytes, to: fd)
        if failure == nil, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw Errno(failure)
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
    }
}
