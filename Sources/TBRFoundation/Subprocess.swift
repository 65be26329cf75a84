import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a program to completion with bytes on its standard input, capturing its output, without
/// blocking the caller's thread: the blocking part (writing, reading, `waitpid`) runs on a Dispatch
/// queue and resumes the caller once. The child gets no descriptor of tbrd's but its three pipes, an
/// empty signal mask and default signal handlers; it is killed when it outlives `timeout`. tbrd runs
/// `nft` (the firewall) and Graphviz's `dot` (the API's mesh picture) through it.
public struct Subprocess {
    /// Why a program could not be run to completion.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// A system call failed (its name and `errno`).
        case system(String, Int32)
        /// It did not finish within this many seconds and was killed.
        case timedOut(seconds: Int)

        public var description: String {
            switch self {
            case .system(let call, let code): "\(call) failed: \(Errno(code).description)"
            case .timedOut(let seconds): "it did not finish within \(seconds) s and was killed"
            }
        }
    }

    /// What the program did.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` (an absolute path) with `arguments`.
    /// - Throws: ``Failure`` when it cannot be started or runs past `timeout`.
    public static func run(_ executable: String, _ arguments: [String], input: [UInt8], timeout: Duration) async throws(Failure)
        -> Result
    {
        let outcome: Swift.Result<Result, Failure> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: runBlocking(executable, arguments, input: input, timeout: timeout))
            }
        }
        return try outcome.get()
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], input: [UInt8], timeout: Duration)
        -> Swift.Result<Result, Failure>
    {
        var stdinPipe: [Int32] = [-1, -1], stdoutPipe: [Int32] = [-1, -1], stderrPipe: [Int32] = [-1, -1]
        // Close-on-exec from the start (pipe2), so that no other child spawned at the same moment
        // elsewhere in tbrd inherits a pipe and keeps it open.
        guard openPipe(&stdinPipe) == 0 else { return .failure(.system("pipe2", errno)) }
        guard openPipe(&stdoutPipe) == 0 else {
            let e = errno
            closeAll(stdinPipe)
            return .failure(.system("pipe2", e))
        }
        guard openPipe(&stderrPipe) == 0 else {
            let e = errno
            closeAll(stdinPipe + stdoutPipe)
            return .failure(.system("pipe2", e))
        }
        // Written with poll: a full pipe must not block this thread.
        _ = fcntl(stdinPipe[1], F_SETFL, fcntl(stdinPipe[1], F_GETFL) | O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        if let closeFrom { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        closeAll([stdinPipe[0], stdoutPipe[1], stderrPipe[1]])
        guard rc == 0 else {
            closeAll([stdinPipe[1], stdoutPipe[0], stderrPipe[0]])
            return .failure(.system("posix_spawn \(executable)", rc))
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var pending = input[...]
        var fds = [pollfd(fd: stdinPipe[1], events: Int16(POLLOUT), revents: 0),
                   pollfd(fd: stdoutPipe[0], events: Int16(POLLIN), revents: 0),
                   pollfd(fd: stderrPipe[0], events: Int16(POLLIN), revents: 0)]
        if pending.isEmpty {
            close(fds[0].fd)
            fds[0].fd = -1
        }
        var output: [[UInt8]] = [[], []]
        var timedOut = false
        var chunk = [UInt8](repeating: 0, count: 65536)
        while fds[1].fd >= 0 || fds[2].fd >= 0 {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                timedOut = true
                break
            }
            let ms = Int32(clamping: left.milliseconds(roundingUp: true))
            let n = poll(&fds, nfds_t(fds.count), ms)
            if n < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[0].fd >= 0, fds[0].revents != 0 {
                let written = pending.withUnsafeBytes { write(fds[0].fd, $0.baseAddress, $0.count) }
                if written > 0 { pending = pending.dropFirst(written) }
                if written < 0, errno != EINTR, errno != EAGAIN { pending = [] }
                if pending.isEmpty {
                    close(fds[0].fd)
                    fds[0].fd = -1
                }
            }
            for i in 1...2 where fds[i].fd >= 0 && fds[i].revents != 0 {
                let r = chunk.withUnsafeMutableBytes { read(fds[i].fd, $0.baseAddress, $0.count) }
                if r > 0 {
                    output[i - 1] += chunk[0..<r]
                } else if r == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(fds[i].fd)
                    fds[i].fd = -1
                }
            }
        }
        closeAll(fds.map(\.fd).filter { $0 >= 0 })
        // The child may outlive its pipes (closed them, or handed them on): it is waited for until the
        // deadline too, then killed.
        var status: Int32 = 0
        if !timedOut, !reaped(pid, &status, before: deadline) { timedOut = true }
        if timedOut {
            kill(pid, SIGKILL)
            // SIGKILL ends it unless it sleeps in the kernel; a child that still does not go is left
            // behind rather than blocking tbrd.
            _ = reaped(pid, &status, before: ContinuousClock.now.advanced(by: .seconds(1)))
            return .failure(.timedOut(seconds: Int(timeout.components.seconds)))
        }
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return .success(Result(
            status: code, stdout: String(decoding: output[0], as: UTF8.self), stderr: String(decoding: output[1], as: UTF8.self)))
    }

    /// Waits for child `pid` to exit until `deadline`, checking every 10 ms (`waitpid` with `WNOHANG`).
    /// - Returns: whether it was reaped (its status in `status`).
    private static func reaped(_ pid: pid_t, _ status: inout Int32, before deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return true }
            if r < 0, errno != EINTR { return true }  // not our child any more (ECHILD): nothing to wait for
            guard ContinuousClock.now < deadline else { return false }
            usleep(10_000)
        }
    }

    private static func closeAll(_ fds: [Int32]) {
        for fd in fds where fd >= 0 { close(fd) }
    }

    /// `pipe2(fds, O_CLOEXEC)`: glibc has it (since 2.9), but the Glibc module does not export it, so it is
    /// looked up at run time.
    private static func openPipe(_ fds: inout [Int32]) -> Int32 {
        fds.withUnsafeMutableBufferPointer { pipe2Function($0.baseAddress!, O_CLOEXEC) }
    }

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private static let pipe2Function: Pipe2 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else {
            preconditionFailure("the C library has no pipe2 (glibc has had it since 2.9)")
        }
        return unsafeBitCast(symbol, to: Pipe2.self)
    }()

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), looked up at run time because the
    /// Glibc module does not export it.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// The absolute path of `tool`: itself when it contains a `/`, else the first executable on `PATH`,
    /// `/usr/sbin` or `/sbin`.
    public static func locate(_ tool: String) -> String? {
        if tool.contains("/") { return access(tool, X_OK) == 0 ? tool : nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"] where !dir.isEmpty {
            let candidate = dir + "/" + tool
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
