import TBRFoundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Creates a database's directory and file with owner-only permissions before SQLite opens them.
///
/// - Missing directories on the path are created with mode 0700 (set with `chmod` after `mkdir`, so
///   the process umask cannot loosen or tighten it); existing directories are left as they are (the
///   operator, or systemd's `StateDirectory=`, owns their mode).
/// - The database file is created (or opened) with `O_NOFOLLOW` and given mode 0600 with `fchmod`
///   before SQLite writes a byte into it. SQLite creates `-wal` and `-shm` with the mode of the database
///   file, and any that already exist are also set to 0600.
enum DatabaseFile {
    /// The mode of the directories created.
    static let directoryMode: mode_t = 0o700
    /// The mode of the database file and its `-wal` and `-shm` companions.
    static let fileMode: mode_t = 0o600

    /// Prepares `path` (a file path; `:memory:` and `file:` URIs are left to SQLite).
    /// - Throws: ``SQLiteError`` with code `SQLITE_CANTOPEN` naming the path, the operation and `errno`.
    static func prepare(_ path: String) throws(SQLiteError) {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try createDirectories(String(path[..<slash]))
        }
        let fd = try retryingEINTR("open", path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, fileMode) }
        defer { close(fd) }
        _ = try retryingEINTR("fchmod", path) { fchmod(fd, fileMode) }
        for suffix in ["-wal", "-shm"] {
            let companion = path + suffix
            var st = stat()
            guard lstat(companion, &st) == 0 else { continue }
            guard st.st_mode & S_IFMT == S_IFREG else { throw failure("use (not a regular file)", companion, ELOOP) }
            _ = try retryingEINTR("chmod", companion) { chmod(companion, fileMode) }
        }
    }

    /// `mkdir -p` where every directory created gets ``directoryMode``.
    private static func createDirectories(_ directory: String) throws(SQLiteError) {
        var missing: [String] = []
        var current = directory
        while !current.isEmpty, !isDirectory(current) {
            missing.append(current)
            guard let slash = current.lastIndex(of: "/"), slash != current.startIndex else { break }
            current = String(current[..<slash])
        }
        for dir in missing.reversed() {
            if mkdir(dir, directoryMode) != 0 {
                let err = errno
                if err == EEXIST, isDirectory(dir) { continue }  // created concurrently: not ours to chmod
                throw failure("create directory", dir, err)
            }
            _ = try retryingEINTR("chmod", dir) { chmod(dir, directoryMode) }
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    /// Calls `body` until it does not fail with `EINTR`; a negative result is thrown with `errno`.
    private static func retryingEINTR(
        _ operation: String, _ path: String, _ body: () -> Int32
    ) throws(SQLiteError) -> Int32 {
        while true {
            let rc = body()
            if rc >= 0 { return rc }
            let err = errno
            if err != EINTR { throw failure(operation, path, err) }
        }
    }

    private static func failure(_ operation: String, _ path: String, _ err: Int32) -> SQLiteError {
        SQLiteError(
            code: .cantOpen,
            message: "cannot \(operation) \(path): \(Errno(err).description) (errno \(err))")
    }
}
