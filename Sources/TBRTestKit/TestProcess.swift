public import Foundation
import TBRFoundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process for tests that cannot wedge the test run: it inherits no descriptor above 2
/// (`posix_spawn_file_actions_addclosefrom_np`), and waiting for it waits on its pidfd instead of
/// blocking one of the few cooperative threads.
///
/// Its standard output and error are pipes that an ``OutputPump`` copies into files as they arrive, and
/// each arrival wakes the tests waiting on it (``wakeups``). Nothing ever waits for a pipe's end of file
/// (a child's own child can hold it open): the exit is told by its pidfd (``ExitWatcher``), and what was written before it is in
/// the pipe already, so reading ``stdout`` or ``stderr`` first drains the pipe.
public final class TestProcess: Sendable {
    /// The child's PID.
    public let pid: pid_t
    /// Where its standard output is kept.
    public let stdoutPath: String
    /// Where its standard error is kept.
    public let stderrPath: String
    private let status = Locked<Int32?>(nil)
    /// Copies the output pipes into the files and wakes the waits on them.
    let output: OutputPump
    /// Tells the waits when the child exits.
    let exit: ExitWatcher

    /// Starts `executable` with `arguments`, output into fresh files in `directory`, with `environment`
    /// added to this process's and `stdinPath` (a file) as standard input.
    public init(
        _ executable: String, _ arguments: [String], directory: URL, environment: [String: String] = [:],
        stdinPath: String? = nil
    ) throws {
        let tag = UUID().uuidString.prefix(8)
        stdoutPath = directory.appendingPathComponent("\(tag).out").path
        stderrPath = directory.appendingPathComponent("\(tag).err").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let pump = try OutputPump(paths: [stdoutPath, stderrPath])
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pump.writeEnds[0], 1)
        posix_spawn_file_actions_adddup2(&actions, pump.writeEnds[1], 2)
        Self.closeInheritedDescriptors(&actions)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // Threads of the test process block signals; the child must get SIGTERM.
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attr, argv, envp)
        do { try pump.start() } catch {
            if rc == 0 {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
            }
            throw error
        }
        guard rc == 0 else { throw TestKitError("cannot start \(executable): \(Errno(rc).description)") }
        do { exit = try ExitWatcher(pid) } catch {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            throw error
        }
        self.pid = pid
        output = pump
    }

    /// The exit code if the child has exited (128 + signal if killed), reaping it; else nil.
    public var exitCode: Int32? {
        status.withLock { s in
            if s == nil {
                var st: Int32 = 0
                if waitpid(pid, &st, WNOHANG) == pid { s = st }
            }
            return s.map { ($0 & 0x7f) == 0 ? ($0 >> 8) & 0xff : 128 + ($0 & 0x7f) }
        }
    }

    /// Waits for the exit (``exitWakeups``).
    /// - Throws: ``TestKitError`` (after killing the child) if it runs past `timeout`.
    public func waitForExit(timeout: Duration = .seconds(20)) async throws -> Int32 {
        if try await waitUntil(within: timeout, wakingOn: [exitWakeups], { exitCode != nil }) == nil, let code = exitCode {
            return code
        }
        kill(pid, SIGKILL)
        _ = try? await waitForExit(timeout: .seconds(5))
        throw TestKitError("process \(pid) still running after \(timeout)")
    }

    /// Sends `signal` and waits for the exit (SIGKILL after `grace`); returns the exit code.
    @discardableResult
    public func terminate(signal: Int32 = SIGTERM, grace: Duration = .seconds(5)) async -> Int32 {
        if let code = exitCode { return code }
        kill(pid, signal)
        if let code = try? await waitForExit(timeout: grace) { return code }
        return exitCode ?? -1
    }

    /// What the child has written to standard output so far.
    public var stdout: String {
        output.drain()
        return (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
    }
    /// What the child has written to standard error so far.
    public var stderr: String {
        output.drain()
        return (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }

    /// Kills the child if it still runs, and reaps it on a thread of its own: a `deinit` runs on
    /// whatever thread dropped the last reference, often one of Swift's cooperative pool, which an
    /// HTTP server's handlers in the same process need (a dying child may take a while to reap on a
    /// loaded machine).
    deinit {
        if exitCode == nil {
            let pid = self.pid
            kill(pid, SIGKILL)
            Thread {
                var st: Int32 = 0
                waitpid(pid, &st, 0)
            }.start()
        }
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), looked up at run time because the
    /// Glibc module does not export it.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// Makes the child close every descriptor above 2 (atomically with closefrom when available, else
    /// those open now).
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom, closeFrom(&actions, 3) == 0 { return }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
    }

    /// Whether the child is still running.
    public var isRunning: Bool { exitCode == nil }
}
