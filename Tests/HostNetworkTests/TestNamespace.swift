import Foundation
import TBRFoundation
import TBRTestKit

#if canImport(Glibc)
import Glibc
#endif

/// A network namespace of one test's own (`ip netns add`), deleted however the test ends; nothing
/// here changes the network namespace the tests run in.
struct TestNamespace {
    /// The namespace's name: the test process's id and a counter, so parallel tests and runs differ.
    let name: String

    /// Where `ip` is, or nil when iproute2 is not installed (the namespace tests are then skipped).
    static let ipPath: String? = try? Executables.find("ip", package: "iproute2")

    private static let counter = Locked(0)

    /// Runs `body` in a new namespace with `lo` up, then deletes the namespace (also when `body` throws)
    /// and checks that it is gone.
    static func with<T>(_ body: (TestNamespace) async throws -> T) async throws -> T {
        guard getuid() == 0 else { throw TestKitError("the namespace tests need root (ip netns add); make test runs as root") }
        let n = counter.withLock { value -> Int in
            value += 1
            return value
        }
        let namespace = TestNamespace(name: "tbrdhn\(getpid())n\(n)")
        try await namespace.ip(["netns", "add", namespace.name])
        do {
            try await namespace.ip(["-n", namespace.name, "link", "set", "lo", "up"])
            let result = try await body(namespace)
            try await namespace.delete()
            return result
        } catch {
            try? await namespace.delete()
            throw error
        }
    }

    /// Runs `ip arguments…` (in the tests' own namespace: callers pass `-n name` or `netns …`) and
    /// fails on a non-zero status.
    @discardableResult
    func ip(_ arguments: [String]) async throws -> String {
        let ip = try Executables.find("ip", package: "iproute2")
        let result = try await ProcessRunner.run(ip, arguments, timeout: .seconds(20))
        guard result.status == 0 else { throw TestKitError("ip \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    /// Runs `ip -n NAME arguments…`: configures the namespace.
    @discardableResult
    func inside(_ arguments: [String]) async throws -> String {
        try await ip(["-n", name] + arguments)
    }

    /// Runs `ip -n NAME arguments…` whatever its status.
    func attempt(_ arguments: [String]) async throws -> ProcessResult {
        let ip = try Executables.find("ip", package: "iproute2")
        return try await ProcessRunner.run(ip, ["-n", name] + arguments, timeout: .seconds(20))
    }

    /// Runs `command` inside the namespace (`ip netns exec`), whatever its status; messages in English.
    func exec(_ command: [String]) async throws -> ProcessResult {
        let ip = try Executables.find("ip", package: "iproute2")
        return try await ProcessRunner.run(ip, ["netns", "exec", name] + command, environment: ["LC_ALL": "C"], timeout: .seconds(20))
    }

    /// The contents of the file at `path` as the namespace sees it (`cat` run inside it), or nil when
    /// it does not exist there.
    func read(_ path: String) async throws -> String? {
        let result = try await exec([try Executables.find("cat", package: "coreutils"), path])
        if result.status != 0, result.stderr.contains("No such file") { return nil }
        guard result.status == 0 else { throw TestKitError("cat \(path) in \(name): \(result.stderr)") }
        return result.stdout
    }

    /// `sysctl -n key` inside the namespace.
    func sysctl(_ key: String) async throws -> String {
        let result = try await exec([try Executables.find("sysctl", package: "procps"), "-n", key])
        guard result.status == 0 else { throw TestKitError("sysctl -n \(key) in \(name): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `sysctl -w key=value` inside the namespace.
    func sysctl(_ key: String, _ value: Int) async throws {
        let result = try await exec([try Executables.find("sysctl", package: "procps"), "-qw", "\(key)=\(value)"])
        guard result.status == 0 else { throw TestKitError("sysctl -w \(key)=\(value) in \(name): \(result.stderr)") }
    }

    private func delete() async throws {
        try await ip(["netns", "del", name])
        guard !FileManager.default.fileExists(atPath: "/run/netns/" + name) else {
            throw TestKitError("namespace \(name) is still there after ip netns del")
        }
    }
}

/// A temporary directory tree of files, removed by ``remove()``.
struct FileTree {
    let root: URL

    init() throws { root = try TemporaryDirectory.make(prefix: "tbrd-hostnetwork") }

    /// Writes `contents` to `path` (relative to the root), making its directories.
    func write(_ path: String, _ contents: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    /// Makes the directory `path` (relative to the root).
    func directory(_ path: String) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent(path), withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
