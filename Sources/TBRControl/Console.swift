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
    /// Reads standard input to its end.
    /// - Throws: when standard input cannot be read.
    func readStandardInput() throws -> [UInt8]
}

/// The process's own standard input, output and error.
public struct StandardConsole: Console {
    /// The process's console.
    public init() {}

    public func write(_ text: String, to stream: ConsoleStream) {
        // A closed pipe (`tbrctl … | head`) is not worth an error message of its own.
        FileDescriptorIO.write(text, to: stream == .standardOutput ? 1 : 2)
    }

    public func readStandardInput() throws -> [UInt8] {
        try FileDescriptorIO.readToEnd(0)
    }
}
