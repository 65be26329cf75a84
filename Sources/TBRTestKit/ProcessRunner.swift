import Foundation

/// The outcome of running a program to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs programs (built binaries, `busctl`, `dbus-send`) and captures their output.
public enum ProcessRunner {
    /// Runs `executable` with `arguments` to completion, with `stdin` as input, and extra `environment`.
    /// A program still running after `timeout` is killed and the call throws.
    public static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) async throws -> ProcessResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        p.standardOutput = outPipe
        p.standardError = errPipe
        p.standardInput = inPipe
        let collector = OutputCollector()
        outPipe.fileHandleForReading.readabilityHandler = { h in collector.append(h.availableData, stderr: false) }
        errPipe.fileHandleForReading.readabilityHandler = { h in collector.append(h.availableData, stderr: true) }
        let exited = AsyncStream<Int32>.makeStream()
        p.terminationHandler = { proc in
            exited.continuation.yield(proc.terminationStatus)
            exited.continuation.finish()
        }
        try p.run()
        if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? inPipe.fileHandleForWriting.close()
        let status: Int32? = await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await exited.stream.first { _ in true } }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let status else {
            kill(p.processIdentifier, SIGKILL)
            throw TestKitError("\(executable) \(arguments.joined(separator: " ")) still running after \(timeout)")
        }
        outPipe.fileHandleForReading.readabilityHandler = nil
        errPipe.fileHandleForReading.readabilityHandler = nil
        collector.append(outPipe.fileHandleForReading.readDataToEndOfFile(), stderr: false)
        collector.append(errPipe.fileHandleForReading.readDataToEndOfFile(), stderr: true)
        let (out, err) = collector.result
        return ProcessResult(status: status, stdout: out, stderr: err)
    }
}

/// Thread-safe accumulation of a child's output.
final class OutputCollector: @unchecked Sendable {
    // @unchecked: all state is guarded by `lock`.
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    func append(_ d: Data, stderr: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if stderr { err.append(d) } else { out.append(d) }
    }

    var result: (String, String) {
        lock.lock()
        defer { lock.unlock() }
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
