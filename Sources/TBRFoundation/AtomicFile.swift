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

/// A wall time as `YYYYMMDDTHHMMSSZ` (ISO 8601 basic format, UTC): file names that sort by time.
public enum CompactUTC {
    public static func stamp(_ secondsSinceEpoch: Double) -> String {
        var t = time_t(secondsSinceEpoch)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
