import Synchronization
import TBRFoundation

/// Which output stream a write goes to.
public enum ConsoleStream: Sendable {
    /// Standard output: the result the user asked for.
    case standardOutput
    /// Standard error: errors and diagnostics.
    case standardError
}

/// The terminal a command talks to. The binary uses ``StandardConsole``; tests run commands in-process
/// with ``CapturedConsole`` and read what they wrote.
public protocol Console: Sendable {
    /// Writes `text` as it is (callers add the newline).
    func write(_ text: String, to stream: ConsoleStream)
    /// Reads standard input to its end, but no more than `limit` bytes.
    /// - Throws: when standard input cannot be read; `FileDescriptorIO.InputTooLong` past `limit`.
    func readStandardInput(limit: Int) throws -> [UInt8]
    /// Why writing to standard output failed, if it did (the first failure); nil when all went out.
    var outputFailure: String? { get }
}

extension Console {
    public var outputFailure: String? { nil }
}

/// The process's own standard input, output and error. A failed write to standard output is kept
/// (``outputFailure``) so that the command ends with exit 74 instead of claiming success.
public final class StandardConsole: Console {
    private let failure = Locked<Int32?>(nil)

    /// The process's console.
    public init() {}

    public func write(_ text: String, to stream: ConsoleStream) {
        guard stream == .standardOutput else {
            FileDescriptorIO.write(text, to: 2)
            return
        }
        if let code = FileDescriptorIO.writeAll(Array(text.utf8), to: 1) {
            failure.withLock { if $0 == nil { $0 = code } }
        }
    }

    public var outputFailure: String? {
        failure.withLock { $0 }.map { Errno($0).description }
    }

    public func readStandardInput(limit: Int) throws -> [UInt8] {
        try FileDescriptorIO.readToEnd(0, limit: limit)
    }
}
