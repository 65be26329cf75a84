import Foundation
import Synchronization
import TBRFoundation
import WebSocket

#if canImport(Glibc)
import Glibc
#endif

/// A real python-matter-server (PyPI, installed by `make matter-server` into
/// `.build/matter-server-venv`) for a test, as `../shared/reference/matter-server.md` says it must run
/// without hardware:
///
/// - in a network namespace of its own (`tbrdms-<pid>-<n>`), with loopback and a veth pair that stays
///   inside it (its mDNS ignores loopback), so its mDNS and its failed downloads touch nothing outside;
/// - in a mount namespace of its own whose root is a tmpfs holding bind mounts of the host's top-level
///   directories, a private empty `/data` (the CHIP SDK writes `/data/chip_*.ini` whatever its storage
///   path says) and a private `/tmp` (`/tmp/chip_kvs`): nothing of it reaches the host's files;
/// - reached from the test's own namespace through a small relay (Python, `os.setns`) that listens on
///   127.0.0.1 here and connects to the server's port inside: closing either side closes the other, so
///   a killed server looks to the client exactly like a server that went away.
///
/// ``kill()`` kills the server (SIGKILL); ``restart()`` starts a fresh one (empty storage) in the same
/// namespace; ``dropConnections()`` cuts every connection through the relay (the server keeps running,
/// as when a network path breaks). ``stop()`` (and `deinit`) remove everything; a later run removes what a killed run left.
/// Needs root, `ip`, `unshare`, `chroot` and the venv: a missing one fails the test, never skips it.
public final class MatterServerProcess: Sendable {
    /// The network namespace.
    public let namespace: String
    /// The relay's port on 127.0.0.1 in the test's namespace.
    public let port: UInt16
    /// `ws://127.0.0.1:<port>/ws`: the server's WebSocket API through the relay.
    public var url: String { "ws://127.0.0.1:\(port)/ws" }
    let directory: URL
    let venv: String
    let server = Locked<TestProcess?>(nil)
    let relay: TestProcess
    let logs = Locked<String>("")
    private static let counter = Atomic<Int>(0)

    private init(namespace: String, port: UInt16, directory: URL, venv: String, relay: TestProcess) {
        self.namespace = namespace
        self.port = port
        self.directory = directory
        self.venv = venv
        self.relay = relay
    }

    /// The venv `make matter-server` installs: `TBRD_MATTER_SERVER_VENV`, else `.build/matter-server-venv`
    /// beside the built products.
    /// - Throws: ``TestKitError`` saying how to install it.
    public static func venv() throws -> String {
        if let dir = ProcessInfo.processInfo.environment["TBRD_MATTER_SERVER_VENV"] { return dir }
        var url = Executables.productsDirectory
        while url.path != "/", url.lastPathComponent != ".build" { url.deleteLastPathComponent() }
        let venv = url.appendingPathComponent("matter-server-venv").path
        guard FileManager.default.isExecutableFile(atPath: venv + "/bin/matter-server") else {
            throw TestKitError("python-matter-server is not installed in \(venv): run `make matter-server` (make test does)")
        }
        return venv
    }

    /// Starts a server and its relay, and waits until the server greets a WebSocket client (at most 60 s).
    public static func start() async throws -> MatterServerProcess {
        let venv = try venv()
        for tool in [("ip", "iproute2"), ("unshare", "util-linux"), ("chroot", "coreutils")] { _ = try Executables.find(tool.0, package: tool.1) }
        guard getuid() == 0 else { throw TestKitError("the python-matter-server tests need root (namespaces); make test runs as root") }
        removeLeftovers()
        let n = counter.add(1, ordering: .relaxed).newValue
        let namespace = "tbrdms-\(getpid())-\(n)"
        let directory = try TemporaryDirectory.make(prefix: "tbrd-matter-server")
        do {
            try await ip(["netns", "add", namespace])
            try await ip(["-n", namespace, "link", "set", "lo", "up"])
            try await ip(["link", "add", "ms0", "netns", namespace, "type", "veth", "peer", "name", "ms1", "netns", namespace])
            try await ip(["-n", namespace, "addr", "add", "198.51.100.1/24", "dev", "ms0"])
            try await ip(["-n", namespace, "addr", "add", "198.51.100.2/24", "dev", "ms1"])
            try await ip(["-n", namespace, "link", "set", "ms0", "up"])
            try await ip(["-n", namespace, "link", "set", "ms1", "up"])
            let relay = try TestProcess(venv + "/bin/python3", ["-c", relayScript, namespace, "5580"], directory: directory)
            var port: UInt16?
            try await eventually("the relay to python-matter-server listens", timeout: .seconds(10), wakingOn: relay.wakeups) {
                guard relay.isRunning || !relay.stdout.isEmpty else { throw TestKitError("the relay exited: \(relay.stderr)") }
                port = relay.stdout.split(separator: "\n").first.flatMap { UInt16($0) }
                return port != nil
            }
            let process = MatterServerProcess(namespace: namespace, port: port!, directory: directory, venv: venv, relay: relay)
            do {
                try await process.launch()
            } catch {
                await process.stop()
                throw error
            }
            return process
        } catch {
            deleteNamespace(namespace)
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Starts a fresh server (after ``kill()``) with empty storage, and waits for it.
    public func restart() async throws { try await launch() }

    private func launch() async throws {
        let root = directory.appendingPathComponent("root-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let command = [
            try Executables.find("ip", package: "iproute2"), "netns", "exec", namespace, try Executables.find("unshare", package: "util-linux"),
            "--mount", "--propagation", "private", "sh", "-c", Self.rootScript, "sh", root.path, venv,
            venv + "/bin/matter-server", "--storage-path", "/data/storage", "--port", "5580", "--listen-address", "127.0.0.1",
            "--primary-interface", "ms0", "--log-level", "info",
        ]
        let p = try TestProcess(command[0], Array(command.dropFirst()), directory: directory)
        server.withLock { $0 = p }
        let url = try WebSocketURL(self.url)
        try await eventually("python-matter-server greets a client", timeout: .seconds(60)) {
            guard p.isRunning else { throw TestKitError("python-matter-server exited (\(p.exitCode ?? -1)): \(p.stderr.suffix(2000))") }
            let outcome = try await TimeLimit.run(.seconds(2), clock: SystemClock()) { () async throws -> Bool in
                let client = try await WebSocketClient.connect(to: url)
                do {
                    let greeting = try await client.receive()
                    await client.close()
                    guard case .text(let text) = greeting else { return false }
                    return text.contains("schema_version")
                } catch {
                    await client.close()
                    throw error
                }
            }
            if case .finished(true) = outcome { return true }
            try await Task.sleep(for: .milliseconds(200))
            return false
        }
    }

    /// Kills the server with SIGKILL (no goodbye) and waits until it has exited.
    public func kill() async {
        guard let p = server.withLock({ $0 }) else { return }
        await p.terminate(signal: SIGKILL)
        logs.withLock { $0 += p.stdout + p.stderr }
        server.withLock { $0 = nil }
    }

    /// Cuts every connection the relay carries now (both sides see the TCP connection end); the server
    /// keeps running and the relay takes new connections.
    public func dropConnections() {
        Glibc.kill(relay.pid, SIGUSR1)
    }

    /// A wake-up at each line the running server writes, and at its exit (``TestProcess/wakeups``); one
    /// wake-up at once when no server runs.
    public var wakeups: Wakeups {
        let server = self.server
        return Wakeups { sink in
            guard let p = server.withLock({ $0 }) else {
                sink.yield()
                return {}
            }
            return try await p.wakeups.start(sink)
        }
    }

    /// What the servers have logged so far.
    public var log: String { logs.withLock { $0 } + (server.withLock { $0 }.map { $0.stdout + $0.stderr } ?? "") }

    /// Stops the server and the relay and removes the namespace and the files. Idempotent.
    public func stop() async {
        await kill()
        await relay.terminate(signal: SIGKILL)
        Self.deleteNamespace(namespace)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        if let p = server.withLock({ $0 }), p.isRunning { Glibc.kill(p.pid, SIGKILL) }
        if relay.isRunning { Glibc.kill(relay.pid, SIGKILL) }
        Self.deleteNamespace(namespace)
    }

    /// Makes the private root and runs the server in it: `sh -c SCRIPT sh ROOT VENV COMMAND…`.
    static let rootScript = #"""
        set -e
        root=$1; keep=$2; shift 2
        mount -t tmpfs -o mode=0755 tbrd-matter-root "$root"
        for entry in /*; do
          name=${entry#/}
          if [ -L "$entry" ]; then cp -P "$entry" "$root/$name"
          elif [ -d "$entry" ]; then mkdir "$root/$name"; mount --rbind "$entry" "$root/$name"
          fi
        done
        mkdir -p "$root/data"
        mount -t tmpfs -o mode=1777 tbrd-matter-tmp "$root/tmp"
        case $keep in /tmp/*) mkdir -p "$root$keep"; mount --bind "$keep" "$root$keep";; esac
        exec chroot "$root" "$@"
        """#

    /// The relay: listens on 127.0.0.1 in this namespace, then enters the server's and connects there.
    static let relayScript = #"""
        import os, signal, socket, sys, threading
        namespace, target = sys.argv[1], int(sys.argv[2])
        pairs = []
        def drop(*_):
            for pair in list(pairs):
                for s in pair:
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
            pairs.clear()
        signal.signal(signal.SIGUSR1, drop)
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        fd = os.open("/run/netns/" + namespace, os.O_RDONLY)
        os.setns(fd, os.CLONE_NEWNET)
        os.close(fd)
        print(listener.getsockname()[1], flush=True)
        def pump(a, b):
            try:
                while True:
                    data = a.recv(65536)
                    if not data:
                        break
                    b.sendall(data)
            except OSError:
                pass
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        while True:
            client, _ = listener.accept()
            try:
                upstream = socket.create_connection(("127.0.0.1", target), timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            pairs.append((client, upstream))
            threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=pump, args=(upstream, client), daemon=True).start()
        """#

    static func ip(_ arguments: [String]) async throws {
        let result = try await ProcessRunner.run(try Executables.find("ip", package: "iproute2"), arguments, timeout: .seconds(10))
        guard result.status == 0 else {
            throw TestKitError("ip \(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.stderr)")
        }
    }

    static func deleteNamespace(_ name: String) { NetworkNamespace.delete(name) }

    /// Deletes the namespaces of earlier runs whose process is gone.
    static func removeLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? []
        for name in names where name.hasPrefix("tbrdms-") {
            let parts = name.split(separator: "-")
            guard parts.count == 3, let pid = Int32(parts[1]), pid != getpid(), Glibc.kill(pid, 0) != 0 else { continue }
            deleteNamespace(name)
        }
    }
}

/// Runs `body` with a fresh ``MatterServerProcess``, stopped afterwards whatever happens.
public func withMatterServer<R>(_ body: (MatterServerProcess) async throws -> R) async throws -> R {
    let server = try await MatterServerProcess.start()
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
