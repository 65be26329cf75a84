import DBus
import Foundation
import TBRTestKit
import Testing

/// Two hosts on an ``AvahiLAN`` and no D-Bus between them: otbr-sim runs on host 0 (`192.0.2.1`) with its
/// REST API on the LAN (`--rest 192.0.2.1:8081`) and its own private bus, publishing through host 0's
/// avahi-daemon; tbrd and tbrctl run inside host 1's network namespace with another private bus, and reach
/// the agent only over HTTP (and see it over mDNS), as they would a border router in the garage.
final class RemoteRouterRig: @unchecked Sendable {
    // @unchecked: the processes are started and stopped by the test's own task.
    let lan: AvahiLAN
    /// otbr-sim's bus: only the agent and the test's control calls use it.
    let agentBus: PrivateBus
    /// tbrd's bus: its D-Bus API, for tbrctl and the test.
    let tbrdBus: PrivateBus
    let directory: URL
    let client: Connection
    var simulator: TestProcess?
    var daemon: TestProcess?
    var watchers: [TestProcess] = []
    /// Keys the test saw: none may reach tbrd's log.
    var secrets: [String] = []

    var agentHost: AvahiLAN.Host { lan.hosts[0] }
    var tbrdHost: AvahiLAN.Host { lan.hosts[1] }
    /// The agent's REST API as tbrd reaches it.
    var restURL: String { "http://\(agentHost.address):8081" }

    init(lan: AvahiLAN) async throws {
        self.lan = lan
        agentBus = try await PrivateBus.start()
        tbrdBus = try await PrivateBus.start()
        directory = try TemporaryDirectory.make(prefix: "tbrd-remote-rig")
        client = try await Connection(bus: .address(tbrdBus.address))
    }

    /// `command` inside network namespace `host`'s.
    func inside(_ host: AvahiLAN.Host, _ command: [String]) throws -> (String, [String]) {
        (try Executables.find("ip", package: "iproute2"), ["netns", "exec", host.namespace] + command)
    }

    /// Starts otbr-sim on the agent host: leader of ``rigDataset``, REST on the LAN, mDNS through the
    /// agent host's avahi-daemon, a short disconnect guard (still several of tbrd's polls long).
    func startSimulator(_ extra: [String] = []) async throws {
        let (ip, arguments) = try inside(
            agentHost,
            [try Executables.product("otbr-sim"), "--bus", agentBus.address, "--mdns", "--dataset", rigDataset, "--role-delay", "100",
             "--rest", "\(agentHost.address):8081", "--disconnect-guard", "1500", "--vendor", "GarageCo", "--product", "Hub R"] + extra)
        let p = try TestProcess(ip, arguments, directory: directory, environment: agentHost.environment)
        simulator = p
        try await eventually("otbr-sim serves REST", timeout: .seconds(10), wakingOn: p.wakeups) { p.stdout.contains("rest wpan0 ") || !p.isRunning }
        guard p.isRunning else { throw TestKitError("otbr-sim did not start: \(p.stderr)") }
    }

    /// Starts tbrd inside the tbrd host (polling REST routers every 200 ms, 2 s per request; `extra`
    /// tbrd.conf lines) and waits until it owns io.tbrd.
    func startDaemon(extra: String = "") async throws {
        let config = directory.appendingPathComponent("tbrd.conf")
        try ("firewall = off\nrest-poll-interval = 0.2\nrest-timeout = 2\n" + extra).write(to: config, atomically: true, encoding: .utf8)
        let (ip, arguments) = try inside(
            tbrdHost,
            [try Executables.product("tbrd"), "--bus", tbrdBus.address, "--state-dir", directory.appendingPathComponent("state").path,
             "--log-level", "debug", "--config", config.path])
        let p = try TestProcess(ip, arguments, directory: directory, environment: tbrdHost.environment)
        daemon = p
        try await eventually("tbrd owns io.tbrd", timeout: .seconds(10), wakingOn: p.wakeups, client.ownerWakeups(of: "io.tbrd")) {
            guard p.isRunning else { throw TestKitError("tbrd exited: \(p.stderr)") }
            return try await client.nameOwner(of: "io.tbrd") != nil
        }
    }

    /// Stops tbrd and checks that it exits cleanly with no secret in its log.
    func stopDaemon() async {
        guard let daemon else { return }
        let code = await daemon.terminate()
        #expect(code == 0, "tbrd exited with \(code): \(daemon.stderr.suffix(2000))")
        for secret in secrets { #expect(!daemon.stderr.contains(secret), "a secret reached tbrd's log") }
        self.daemon = nil
    }

    /// Runs tbrctl inside the tbrd host, on tbrd's bus.
    func tbrctl(_ arguments: [String]) async throws -> ProcessResult {
        let (ip, words) = try inside(tbrdHost, [try Executables.product("tbrctl"), "--bus", tbrdBus.address] + arguments)
        return try await ProcessRunner.run(ip, words, environment: tbrdHost.environment, timeout: .seconds(60))
    }

    /// tbrctl with `--json`, its output parsed as one object.
    func json(_ arguments: [String]) async throws -> (ProcessResult, [String: Any]) {
        let r = try await tbrctl(["--json"] + arguments)
        return (r, ((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any]) ?? [:])
    }

    /// `tbrctl --json list`, parsed.
    func list() async throws -> [[String: Any]] {
        let r = try await tbrctl(["--json", "list"])
        return ((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [[String: Any]]) ?? []
    }

    /// The row of `list` for `id`.
    func row(_ id: String) async throws -> [String: Any]? { try await list().first { $0["id"] as? String == id } }

    /// Starts `tbrctl --json epskc watch` (through tbrd) in the background.
    func watch() async throws -> TestProcess {
        let (ip, words) = try inside(tbrdHost, [try Executables.product("tbrctl"), "--bus", tbrdBus.address, "--json", "epskc", "watch"])
        let p = try TestProcess(ip, words, directory: directory, environment: tbrdHost.environment)
        watchers.append(p)
        try await eventually("the watcher is following tbrd", wakingOn: p.wakeups) { p.stderr.contains("watching") || !p.isRunning }
        return p
    }

    /// `method` of the simulated agent (its D-Bus API on the agent bus), as a client on that host would call it.
    func agentCall(_ method: String, _ signature: String = "", _ arguments: [String] = []) async throws -> ProcessResult {
        try await busctl(["io.openthread.BorderRouter.wpan0", "/io/openthread/BorderRouter/wpan0", "io.openthread.BorderRouter", method], signature, arguments)
    }

    /// `method` of the simulator's control interface: what a commissioner does to the agent.
    func control(_ method: String, _ signature: String = "", _ arguments: [String] = []) async throws -> ProcessResult {
        try await busctl(["io.openthread.BorderRouter.wpan0", "/io/tbrd/Simulator/wpan0", "io.tbrd.Simulator1", method], signature, arguments)
    }

    private func busctl(_ target: [String], _ signature: String, _ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(
            try Executables.find("busctl", package: "systemd"),
            ["--address=\(agentBus.address)", "call"] + target + (signature.isEmpty ? [] : [signature]) + arguments)
    }

    /// Stops every process and removes the files.
    func finish() async {
        for w in watchers { await w.terminate() }
        await stopDaemon()
        if let simulator { await simulator.terminate() }
        await client.close()
        agentBus.stop()
        tbrdBus.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a fresh LAN and rig, torn down whatever happens.
func withRemoteRouterRig(_ body: (RemoteRouterRig) async throws -> Void) async throws {
    try await withAvahiLAN { lan in
        let rig = try await RemoteRouterRig(lan: lan)
        do {
            try await body(rig)
        } catch {
            await rig.finish()
            throw error
        }
        await rig.finish()
    }
}

/// The JSON lines a watcher has printed so far.
func watchedEvents(_ watcher: TestProcess) -> [[String: Any]] {
    watcher.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
}
