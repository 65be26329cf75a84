#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whole writes and reads on raw file descriptors (standard output and error, standard input), retrying
/// on EINTR, without Foundation's `FileHandle`.
public enum FileDescriptorIO {
    /// A read that failed, with its errno.
    public struct ReadError: Error, Equatable, Sendable, CustomStringConvertible {
        public let errno: Int32
        public var description: String { Errno(errno).description }
    }

    /// Writes all of `bytes` to `fd`; stops quietly if the reader went away (EPIPE) or another error occurs.
    public static func write(_ bytes: [UInt8], to fd: Int32) {
        _ = writeAll(bytes, to: fd)
    }

    /// Writes all of `bytes` to `fd`, retrying on `EINTR`.
    /// - Returns: nil when everything was written, else the `errno` of the failed write.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        bytes.withUnsafeBytes { buf -> Int32? in
            var offset = 0
            while offset < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
    }

    /// Writes `text` as UTF-8 to `fd`.
    public static func write(_ text: String, to fd: Int32) { write(Array(text.utf8), to: fd) }

    /// The contents of the file at `path`.
    /// - Throws: ``ReadError`` whose description is the system's sentence ("No such file or directory").
    public static func readFile(atPath path: String) throws(ReadError) -> [UInt8] {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw ReadError(errno: errno) }
        defer { close(fd) }
        return try readToEnd(fd)
    }

    /// More input than the largest valid one: reading stopped after ``limit`` bytes.
    public struct InputTooLong: Error, Equatable, Sendable, CustomStringConvertible {
        public let limit: Int
        /// Input past `limit` bytes.
        public init(limit: Int) { self.limit = limit }
        public var description: String { "more than \(limit) bytes" }
    }

    /// Reads `fd` to its end, but never more than `limit` bytes (so `/dev/zero` cannot exhaust memory).
    /// - Throws: ``ReadError`` for a failed read, ``InputTooLong`` when there is more than `limit`.
    public static func readToEnd(_ fd: Int32, limit: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(65536, limit + 1))
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, min($0.count, limit + 1 - out.count)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError(errno: errno)
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw InputTooLong(limit: limit) }
        }
    }

    /// The contents of the file at `path`, at most `limit` bytes.
    /// - Throws: ``ReadError`` (the system's sentence), ``InputTooLong`` when it holds more than `limit`.
    public static func readFile(atPath path: String, limit: Int) throws -> [UInt8] {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw ReadError(errno: errno) }
        defer { close(fd) }
        return try readToEnd(fd, limit: limit)
    }

    /// Reads `fd` to its end.
    /// - Throws: ``ReadError`` for a failed read.
    public static func readToEnd(_ fd: Int32) throws(ReadError) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError(errno: errno)
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }
}
