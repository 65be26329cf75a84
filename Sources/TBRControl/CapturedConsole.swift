import Synchronization
import TBRFoundation

/// A console that keeps what is written and serves a fixed standard input, for running commands
/// in-process in tests:
/// ```swift
/// let console = CapturedConsole(input: "0e08…")
/// let status = await TBRControlMain.main(arguments: ["dataset", "decode", "-"], console: console)
/// #expect(console.output.contains("OpenThreadDemo"))
/// ```
public final class CapturedConsole: Console {
    private let written = Locked<(output: String, error: String)>(("", ""))
    private let input: [UInt8]

    /// A console whose standard input holds `input`.
    public init(input: String = "") {
        self.input = Array(input.utf8)
    }

    /// Everything written to standard output so far.
    public var output: String { written.withLock { $0.output } }

    /// Everything written to standard error so far.
    public var errorOutput: String { written.withLock { $0.error } }

    public func write(_ text: String, to stream: ConsoleStream) {
        written.withLock { written in
            switch stream {
            case .standardOutput: written.output += text
            case .standardError: written.error += text
            }
        }
    }

    public func readStandardInput(limit: Int) throws -> [UInt8] {
        guard input.count <= limit else { throw FileDescriptorIO.InputTooLong(limit: limit) }
        return input
    }
}
