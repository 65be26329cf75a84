import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The built `matter-sim` (a simulated python-matter-server, docs/matter-sim.md) run for a test: started
/// with the arguments given (and `--port 0` unless they name a port), waited for until it prints its
/// `ready ws://HOST:PORT/ws` line, stopped with SIGTERM by ``stop()`` (or killed when it is released).
public final class MatterSimProcess: Sendable {
    /// The child.
    public let process: TestProcess
    /// `ws://127.0.0.1:PORT/ws`, from its ready line.
    public let url: String
    let directory: URL

    private init(process: TestProcess, url: String, directory: URL) {
        self.process = process
        self.url = url
        self.directory = directory
    }

    /// Starts `matter-sim` with `arguments` and waits (at most 20 s) for its ready line.
    /// - Throws: ``TestKitError`` if it is not built, exits, or never gets ready.
    public static func start(_ arguments: [String] = []) async throws -> MatterSimProcess {
        let binary = try Executables.product("matter-sim")
        let directory = try TemporaryDirectory.make(prefix: "tbrd-matter-sim")
        let process = try TestProcess(binary, (arguments.contains("--port") ? [] : ["--port", "0"]) + arguments, directory: directory)
        var url: String?
        try await eventually("matter-sim prints its ready line", timeout: .seconds(20), wakingOn: process.wakeups) {
            guard process.isRunning else { throw TestKitError("matter-sim exited (\(process.exitCode ?? -1)): \(process.stderr)") }
            url = process.stdout.split(separator: "\n").first.flatMap { $0.hasPrefix("ready ") ? String($0.dropFirst(6)) : nil }
            return url != nil
        }
        return MatterSimProcess(process: process, url: url!, directory: directory)
    }

    /// Stops it with SIGTERM and returns its exit status.
    @discardableResult
    public func stop() async -> Int32 {
        let code = await process.terminate(signal: SIGTERM)
        try? FileManager.default.removeItem(at: directory)
        return code
    }

    /// The tbrd.conf lines that point tbrd at it (`matter-backend = matter-server`, its URL).
    public var tbrdConfiguration: String { "matter-backend = matter-server\nmatter-server-url = \(url)\n" }

    /// What it has logged so far (standard error).
    public var log: String { process.stderr }
}
