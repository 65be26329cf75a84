public import Foundation

/// A private `dbus-daemon` for one test: its own config file and socket in a temporary directory,
/// killed and removed by ``stop()`` (and by `deinit` as a last resort). Use ``withPrivateBus(policy:_:)``
/// so it is torn down even when the test fails or throws.
public final class PrivateBus: Sendable {
    /// The bus address to connect to, e.g. `unix:path=/tmp/tbrd-bus-XXXX/socket`.
    public let address: String
    /// The temporary directory holding the config and the socket.
    public let directory: URL
    private let process: ChildProcess

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

    /// Starts `dbus-daemon` with `policy` (XML `<policy>` elements) and optional `<include>` files.
    /// - Throws: ``TestKitError`` if dbus-daemon is missing or does not start: tests fail, never skip.
    public init(policy: String = PrivateBus.permissivePolicy, includes: [String] = [], extraConfig: String = "") throws {
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

        let p = try ChildProcess(
            daemon, ["--config-file=\(configURL.path)", "--nofork", "--nopidfile", "--print-address=1", "--nosyslog"],
            stderrPath: dir.appendingPathComponent("daemon.log").path)
        // The daemon prints its address once it listens.
        let line = p.readLine()
        guard let line, line.hasPrefix("unix:") else {
            p.stop(signal: SIGKILL)
            let log = (try? String(contentsOf: dir.appendingPathComponent("daemon.log"), encoding: .utf8)) ?? ""
            throw TestKitError("dbus-daemon did not start (config \(configURL.path)): \(log)")
        }
        self.address = line
        self.directory = dir
        self.process = p
    }

    /// The PID of the daemon.
    public var pid: Int32 { process.pid }

    /// Kills the daemon and removes its directory. Idempotent.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

/// Runs `body` with a fresh private bus that is stopped afterwards, whatever happens.
public func withPrivateBus<R>(
    policy: String = PrivateBus.permissivePolicy, _ body: (PrivateBus) async throws -> R
) async throws -> R {
    let bus = try PrivateBus(policy: policy)
    defer { bus.stop() }
    return try await body(bus)
}

extension FileHandle {
    /// Reads one line (without the newline), or nil at end of file. Byte by byte with read(2), retrying
    /// on EINTR, so nothing past the line is consumed.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        var b: UInt8 = 0
        while true {
            let n = Glibc.read(fileDescriptor, &b, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if b == 0x0a { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(b)
        }
    }
}
