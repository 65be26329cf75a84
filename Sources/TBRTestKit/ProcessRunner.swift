import Foundation

/// The outcome of running a program to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// The D-Bus error name a failed `dbus-send --print-reply` printed ("Error <name>: <message>").
    public var errorName: String? {
        guard status != 0, let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("Error ") }) else {
            return nil
        }
        return line.dropFirst(6).split(separator: ":").first.map(String.init)
    }
}

/// Runs programs (built binaries, `busctl`, `dbus-send`) to completion and captures their output,
/// through ``TestProcess`` (files, not pipes; no inherited descriptors; no blocking waits).
public enum ProcessRunner {
    /// Runs `executable` with `arguments`, with `stdin` as input and extra `environment`. A program still
    /// running after `timeout` is killed and the call throws.
    public static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) async throws -> ProcessResult {
        let directory = try TemporaryDirectory.make(prefix: "tbrd-run")
        defer { try? FileManager.default.removeItem(at: directory) }
        var stdinPath: String?
        if let stdin {
            let url = directory.appendingPathComponent("stdin")
            try Data(stdin.utf8).write(to: url)
            stdinPath = url.path
        }
        let p = try TestProcess(executable, arguments, directory: directory, environment: environment, stdinPath: stdinPath)
        let code = try await p.waitForExit(timeout: timeout)
        return ProcessResult(status: code, stdout: p.stdout, stderr: p.stderr)
    }
}
