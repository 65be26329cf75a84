import DBus
import Foundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A complete network (dataset A of the test vectors) the simulated router starts on.
let rigDataset =
    "0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd051000112233445566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce570a70efeecb0c0402a0f7f8"

/// Two hosts on an ``AvahiLAN``: otbr-sim on host 0 publishes through host 0's avahi-daemon; tbrd and
/// tbrctl browse through host 1's. otbr-sim and tbrd share one more private bus (the agent's D-Bus
/// API), as if tbrd managed an agent whose mDNS it sees over the LAN.
final class LANRig: @unchecked Sendable {
    // @unchecked: the processes are started and stopped by the test's own task.
    let lan: AvahiLAN
    /// The bus otbr-sim serves its agents on and tbrd finds them on.
    let agentBus: PrivateBus
    let directory: URL
    let client: Connection
    var simulator: TestProcess?
    var daemon: TestProcess?
    var watchers: [TestProcess] = []

    var publisher: AvahiLAN.Host { lan.hosts[0] }
    var browser: AvahiLAN.Host { lan.hosts[1] }

    init(lan: AvahiLAN) async throws {
        self.lan = lan
        agentBus = try await PrivateBus.start()
        directory = try TemporaryDirectory.make(prefix: "tbrd-lan-rig")
        client = try await Connection(bus: .address(agentBus.address))
    }

    /// Starts otbr-sim with `--mdns` (leader of ``rigDataset``) and `extra` arguments.
    func startSimulator(_ extra: [String] = []) async throws {
        let arguments = ["--bus", agentBus.address, "--mdns", "--dataset", rigDataset, "--role-delay", "100", "--disconnect-guard", "100"] + extra
        let interfaces = max(1, extra.filter { $0 == "--interface" }.count)
        let p = try TestProcess(try Executables.product("otbr-sim"), arguments, directory: directory, environment: publisher.environment)
        simulator = p
        try await eventually("otbr-sim is ready", wakingOn: p.wakeups) { p.stdout.split(separator: "\n").count == interfaces || !p.isRunning }
        guard p.isRunning else { throw TestKitError("otbr-sim did not start: \(p.stderr)") }
    }

    /// Starts tbrd (browsing through the browser host's avahi-daemon) and waits until it owns io.tbrd.
    func startDaemon() async throws {
        let p = try TestProcess(
            try Executables.product("tbrd"),
            ["--bus", agentBus.address, "--state-dir", directory.appendingPathComponent("state").path, "--log-level", "debug"],
            directory: directory, environment: browser.environment)
        daemon = p
        try await eventually("tbrd owns io.tbrd", wakingOn: p.wakeups, client.ownerWakeups(of: "io.tbrd")) {
            guard p.isRunning else { throw TestKitError("tbrd exited: \(p.stderr)") }
            return try await client.nameOwner(of: "io.tbrd") != nil
        }
    }

    /// Runs tbrctl on the agent bus, browsing through the browser host.
    func tbrctl(_ arguments: [String], environment: [String: String]? = nil) async throws -> ProcessResult {
        try await ProcessRunner.run(
            try Executables.product("tbrctl"), ["--bus", agentBus.address] + arguments, environment: environment ?? browser.environment,
            timeout: .seconds(30))
    }

    /// Starts `tbrctl --json epskc watch` in the background (through tbrd).
    func watch() async throws -> TestProcess {
        let p = try TestProcess(
            try Executables.product("tbrctl"), ["--bus", agentBus.address, "--json", "epskc", "watch"], directory: directory,
            environment: browser.environment)
        watchers.append(p)
        try await eventually("the watcher is following tbrd", wakingOn: p.wakeups) { p.stderr.contains("watching") || !p.isRunning }
        return p
    }

    /// `method` of the agent `interface` on the agent bus, as an outside client (busctl) would call it.
    func agentCall(_ interface: String = "wpan0", _ method: String, _ signature: String = "", _ arguments: [String] = [])
        async throws -> ProcessResult
    {
        try await ProcessRunner.run(
            try Executables.find("busctl", package: "systemd"),
            ["--address=\(agentBus.address)", "call", "io.openthread.BorderRouter.\(interface)", "/io/openthread/BorderRouter/\(interface)",
             "io.openthread.BorderRouter", method] + (signature.isEmpty ? [] : [signature]) + arguments)
    }

    /// `method` of the simulator's control interface for `interface`.
    func control(_ interface: String = "wpan0", _ method: String, _ signature: String = "", _ arguments: [String] = [])
        async throws -> ProcessResult
    {
        try await ProcessRunner.run(
            try Executables.find("busctl", package: "systemd"),
            ["--address=\(agentBus.address)", "call", "io.openthread.BorderRouter.\(interface)", "/io/tbrd/Simulator/\(interface)",
             "io.tbrd.Simulator1", method] + (signature.isEmpty ? [] : [signature]) + arguments)
    }

    /// The vendor and product names tbrd serves for `router`, read over D-Bus (cheap enough to poll;
    /// tests confirm with `tbrctl info` once).
    func servedNames(_ router: String = "wpan0") async throws -> (String, String) {
        let object = RemoteObject(
            connection: client, destination: "io.tbrd",
            path: ObjectPath.root.appending("io").appending("tbrd").appending("router").appending(router),
            interface: "io.tbrd.BorderRouter1")
        return (try await object.property("VendorName", as: String.self), try await object.property("ProductName", as: String.self))
    }

    /// The JSON objects a watcher has printed so far.
    static func events(_ watcher: TestProcess) -> [[String: Any]] {
        watcher.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Stops every process, checks that tbrd exits cleanly, and removes the files.
    func finish() async {
        for w in watchers { await w.terminate() }
        if let daemon {
            let code = await daemon.terminate()
            #expect(code == 0, "tbrd exited with \(code): \(daemon.stderr.suffix(2000))")
        }
        if let simulator { await simulator.terminate() }
        await client.close()
        agentBus.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a fresh LAN and rig, torn down whatever happens.
func withLANRig(_ body: (LANRig) async throws -> Void) async throws {
    try await withAvahiLAN { lan in
        let rig = try await LANRig(lan: lan)
        do {
            try await body(rig)
        } catch {
            await rig.finish()
            throw error
        }
        await rig.finish()
    }
}
