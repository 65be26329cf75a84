public import Foundation

/// A private `dbus-daemon` for one test: its own config file and socket in a temporary directory,
/// killed and removed by ``stop()`` (and by `deinit` as a last resort). Use ``withPrivateBus(policy:_:)``
/// so it is torn down even when the test fails or throws.
public final class PrivateBus: Sendable {
    /// The bus address to connect to, e.g. `unix:path=/tmp/tbrd-bus-XXXX/socket`.
    public let address: String
    /// The temporary directory holding the config and the socket.
    public let directory: URL
    private let process: TestProcess

    /// Everything is allowed: tests exercise behaviour, not policy (policy tests pass their own rules).
    public static let permissivePolicy = """
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow send_interface="org.freedesktop.DBus.Debug.Stats"/>
          </policy>
        """

    /// Starts `dbus-daemon` with `policy` (XML `<policy>` elements) and optional `<include>` files, and
    /// waits (without blocking a thread) until it listens.
    /// - Throws: ``TestKitError`` if dbus-daemon is missing or does not start: tests fail, never skip.
    public static func start(
        policy: String = PrivateBus.permissivePolicy, includes: [String] = [], extraConfig: String = ""
    ) async throws -> PrivateBus {
        let daemon = try Executables.find("dbus-daemon", package: "dbus-daemon")
        let dir = try TemporaryDirectory.make(prefix: "tbrd-bus")
        let socket = dir.appendingPathComponent("socket").path
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>tbrd-test</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
            \(includes.map { "  <include>\($0)</include>" }.joined(separator: "\n"))
            \(policy)
            \(extraConfig)
            </busconfig>
            """
        let configURL = dir.appendingPathComponent("bus.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        let p = try TestProcess(
            daemon, ["--config-file=\(configURL.path)", "--nofork", "--nopidfile", "--print-address=1", "--nosyslog"],
            directory: dir)
        // The daemon prints its address once it listens.
        var address: String?
        _ = try await waitUntil(within: .seconds(10), wakingOn: [p.wakeups]) {
            if let line = p.stdout.split(separator: "\n").first, line.hasPrefix("unix:") { address = String(line) }
            return address != nil || !p.isRunning
        }
        if let address { return PrivateBus(address: address, directory: dir, process: p) }
        _ = await p.terminate(signal: SIGKILL)
        throw TestKitError("dbus-daemon did not start (config \(configURL.path)): \(p.stderr)")
    }

    private init(address: String, directory: URL, process: TestProcess) {
        self.address = address
        self.directory = directory
        self.process = process
    }

    /// The PID of the daemon.
    public var pid: Int32 { process.pid }

    /// Kills the daemon and removes its directory. Idempotent.
    public func stop() {
        // dbus-daemon exits within milliseconds of SIGTERM; TestProcess's deinit SIGKILLs it if it has
        // not, and reaps it on a thread of its own. Nothing here waits: stop() is called from `defer` in
        // async tests, on a thread of Swift's cooperative pool, which HTTP handlers in this process need.
        if process.isRunning { kill(process.pid, SIGTERM) }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

/// Runs `body` with a fresh private bus that is stopped afterwards, whatever happens.
public func withPrivateBus<R>(
    policy: String = PrivateBus.permissivePolicy, _ body: (PrivateBus) async throws -> R
) async throws -> R {
    let bus = try await PrivateBus.start(policy: policy)
    defer { bus.stop() }
    return try await body(bus)
}
