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
        public var description: String { String(cString: strerror(errno)) }
    }

    /// Writes all of `bytes` to `fd`; stops quietly if the reader went away (EPIPE) or another error occurs.
    public static func write(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
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
