public import Foundation
import Synchronization

/// A long-running child (dbus-daemon, otbr-sim, tbrd) started with `posix_spawn`, stdout as a pipe,
/// stopped with a signal and reaped with `waitpid` (Foundation's `waitUntilExit` spins off the main thread).
public final class ChildProcess: Sendable {
    /// The child's PID.
    public let pid: pid_t
    /// Read end of the child's stdout (and stderr, when merged).
    public let output: FileHandle
    private let status = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments`. stderr goes to `stderrPath` (a file) or is inherited.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], stderrPath: String? = nil) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestKitError("pipe failed: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stderrPath { posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o600) }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // Threads of this process block signals (libdispatch does); the child must not inherit that mask,
        // or it would ignore the SIGTERM that stops it.
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attr, argv, envp)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw TestKitError("cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        self.output = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
    }

    /// Whether the child has not yet exited (reaps it if it has).
    public var isRunning: Bool {
        status.withLock { s in
            if s != nil { return false }
            var st: Int32 = 0
            let r = waitpid(pid, &st, WNOHANG)
            if r == pid { s = st; return false }
            return r == 0
        }
    }

    /// Sends `signal`, waits for the exit (SIGKILL after `grace`), and returns the raw wait status.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, grace: Duration = .seconds(5)) -> Int32 {
        status.withLock { s in
            if let s { return s }
            kill(pid, signal)
            let deadline = ContinuousClock.now.advanced(by: grace)
            var st: Int32 = 0
            while true {
                let r = waitpid(pid, &st, WNOHANG)
                if r == pid || r < 0 { break }
                if ContinuousClock.now >= deadline {
                    kill(pid, SIGKILL)
                    _ = waitpid(pid, &st, 0)
                    break
                }
                usleep(2000)
            }
            s = st
            return st
        }
    }

    /// Waits for the child to exit on its own and returns its exit code (128+signal if killed).
    public func waitForExit() -> Int32 {
        let st = status.withLock { s -> Int32 in
            if let s { return s }
            var st: Int32 = 0
            _ = waitpid(pid, &st, 0)
            s = st
            return st
        }
        return (st & 0x7f) == 0 ? (st >> 8) & 0xff : 128 + (st & 0x7f)
    }

    /// Reads one line of the child's output (without the newline); nil at end of file.
    public func readLine() -> String? { output.readLine() }

    deinit { _ = stop(signal: SIGKILL, grace: .seconds(1)) }
}
