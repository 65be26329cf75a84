#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TBRFoundation

/// The one place this module reads the file system: whole files (procfs and sysfs files report a size
/// of 0, so they are read to their end, up to a limit) and directory listings.
enum SystemFiles {
    /// The bytes of the file at `path`, at most `limit`.
    /// - Throws: ``HostNetworkError`` naming `path`: `.unreadable` with the errno, `.tooLarge`.
    static func read(_ path: String, limit: Int) throws(HostNetworkError) -> [UInt8] {
        do {
            return try FileDescriptorIO.readFile(atPath: path, limit: limit)
        } catch let error as FileDescriptorIO.ReadError {
            throw HostNetworkError(.unreadable(errno: error.errno), file: path)
        } catch is FileDescriptorIO.InputTooLong {
            throw HostNetworkError(.tooLarge(limit: limit), file: path)
        } catch {
            preconditionFailure("FileDescriptorIO.readFile throws only ReadError and InputTooLong, not \(error)")
        }
    }

    /// The bytes of the file at `path`, or nil when there is no such file (ENOENT).
    /// - Throws: ``HostNetworkError`` for any other failure.
    static func readIfPresent(_ path: String, limit: Int) throws(HostNetworkError) -> [UInt8]? {
        do {
            return try read(path, limit: limit)
        } catch {
            if error.reason == .unreadable(errno: ENOENT) { return nil }
            throw error
        }
    }

    /// Whether `path` is a directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        var rc: Int32
        repeat { rc = stat(path, &status) } while rc != 0 && errno == EINTR
        return rc == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The names in directory `path` (without `.` and `..`), or nil when it cannot be opened.
    static func entries(of path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
