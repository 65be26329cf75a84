import DBus
import Foundation
import MeshCoP
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A complete network (dataset A of the test vectors) the simulated routers start on.
let demoDataset =
    "0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd051000112233445566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce570a70efeecb0c0402a0f7f8"
/// Its network key: must never appear in tbrd's log.
let demoNetworkKey = "00112233445566778899aabbccddeeff"


/// A private bus with `otbr-sim` (the built binary) serving `interfaces`, and `tbrd` (the built binary)
/// with its own state directory; everything is stopped at the end, and tbrd's log is checked for
/// secrets (the network key and every ePSKc the test saw).
final class DaemonEnvironment: @unchecked Sendable {
    // @unchecked: `secrets` is only touched by the test's own task.
    let bus: PrivateBus
    let directory: URL
    let client: Connection
    var simulator: TestProcess?
    var daemon: TestProcess?
    var secrets: [String] = [demoNetworkKey]
    var logs: [String] = []

    var address: String { bus.address }
    var stateDirectory: String { directory.appendingPathComponent("state").path }

    init(bus: PrivateBus) async throws {
        self.bus = bus
        directory = try TemporaryDirectory.make(prefix: "tbrd-daemon-test")
        client = try await Connection(bus: .address(bus.address))
    }

    /// Starts otbr-sim with `interfaces` on the network of ``demoDataset``; its agents restart
    /// `restartDelayMs` after `LeaveNetwork`.
    func startSimulator(_ interfaces: [String] = ["wpan0", "wpan1"], restartDelayMs: Int = 300, extra: [String] = []) async throws {
        var arguments = ["--bus", address, "--dataset", demoDataset, "--role-delay", "100", "--disconnect-guard", "100", "--restart-delay", "\(restartDelayMs)"]
        for i in interfaces { arguments += ["--interface", i] }
        let p = try TestProcess(try Executables.product("otbr-sim"), arguments + extra, directory: directory)
        simulator = p
        try await eventually("otbr-sim is ready", wakingOn: p.wakeups) {
            p.stdout.split(separator: "\n").filter { $0.hasPrefix("ready ") }.count == interfaces.count || !p.isRunning
        }
        guard p.isRunning else { throw TestKitError("otbr-sim did not start: \(p.stderr)") }
    }

    /// Writes `text` as a configuration file for tbrd; returns the `--config` arguments. Unless
    /// `firewall` is true the file starts with `firewall = off`: a tbrd in the host's own network
    /// namespace must never touch the host's firewall (the firewall tests run tbrd in a namespace of
    /// their own).
    func configuration(_ text: String, firewall: Bool = false) throws -> [String] {
        let file = directory.appendingPathComponent("tbrd.conf")
        try ((firewall ? "" : "firewall = off\n") + text).write(to: file, atomically: true, encoding: .utf8)
        return ["--config", file.path]
    }

    /// Starts tbrd and waits until it owns io.tbrd: in the network namespace `namespace` when given
    /// (`ip netns exec`), else in the test's own with `firewall = off` unless `extra` gives a `--config`.
    func startDaemon(_ extra: [String] = [], namespace: String? = nil) async throws {
        var extra = extra
        if !extra.contains("--config") { extra += try configuration("", firewall: namespace != nil) }
        let tbrd = try Executables.product("tbrd")
        var command = [tbrd]
        if let namespace { command = [try Executables.find("ip", package: "iproute2"), "netns", "exec", namespace, tbrd] }
        let p = try TestProcess(
            command[0], Array(command.dropFirst()) + ["--bus", address, "--state-dir", stateDirectory, "--log-level", "debug"] + extra,
            directory: directory)
        daemon = p
        try await eventually("tbrd owns io.tbrd", wakingOn: p.wakeups, client.ownerWakeups(of: "io.tbrd")) {
            guard p.isRunning else { throw TestKitError("tbrd exited: \(p.stderr)") }
            return try await client.nameOwner(of: "io.tbrd") != nil
        }
    }

    /// Stops tbrd with `signal` and returns its exit code; its log is kept for the secrets check.
    @discardableResult
    func stopDaemon(signal: Int32 = SIGTERM) async -> Int32 {
        guard let p = daemon else { return -1 }
        let code = await p.terminate(signal: signal)
        logs.append(p.stderr)
        daemon = nil
        return code
    }

    var manager: RemoteObject { RemoteObject(connection: client, destination: "io.tbrd", path: "/io/tbrd", interface: "io.tbrd.Manager1") }

    func router(_ id: String) -> RemoteObject {
        RemoteObject(
            connection: client, destination: "io.tbrd", path: ObjectPath.root.appending("io").appending("tbrd").appending("router").appending(id),
            interface: "io.tbrd.BorderRouter1")
    }

    func simulatorControl(_ interface: String) -> RemoteObject {
        RemoteObject(
            connection: client, destination: try! BusName("io.openthread.BorderRouter." + interface),
            path: ObjectPath.root.appending("io").appending("tbrd").appending("Simulator").appending(interface),
            interface: "io.tbrd.Simulator1")
    }

    /// Activates an ePSKc on `router` through tbrd and remembers the key as a secret.
    func activate(_ router: String, seconds: UInt16) async throws -> (status: String, key: String, valid: UInt16) {
        let reply = try await self.router(router).call("ActivateEpskcMode", [.uint16(seconds)])
        let status = try reply[0].decode(as: String.self), key = try reply[1].decode(as: String.self)
        if !key.isEmpty { secrets.append(key) }
        return (status, key, try reply[2].decode(as: UInt16.self))
    }

    /// The journal from `since`, as (sequence, router, kind, reason, detail).
    func journal(since: UInt64 = 0) async throws -> [(UInt64, String, String, String, String)] {
        let reply = try await manager.call("EpskcEvents", [.uint64(since), .string(""), .uint32(0)])
        guard case .array(_, let rows) = reply[0] else { return [] }
        return try rows.map { row in
            var r = try StructReader(row, fieldCount: 8)
            return (try r.next(), try r.next(), try r.next(), try r.next(), try r.next())
        }
    }

    /// Stops everything and checks that no secret reached tbrd's log.
    func finish() async {
        if daemon != nil { await stopDaemon() }
        if let simulator { _ = await simulator.terminate() }
        await client.close()
        let log = logs.joined(separator: "\n")
        for secret in secrets {
            #expect(!log.contains(secret), "a secret reached tbrd's log")
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A border router "on another host": otbr-sim serving `interface` on a bus of its own, which tbrd
/// does not see, with its REST API on a free port.
final class RemoteAgent: Sendable {
    let bus: PrivateBus
    let simulator: TestProcess
    /// Its REST API's base URL, for `tbrctl router add`.
    let url: String

    init(in env: DaemonEnvironment, interface: String) async throws {
        bus = try await PrivateBus.start()
        simulator = try TestProcess(
            try Executables.product("otbr-sim"),
            ["--bus", bus.address, "--interface", interface, "--dataset", demoDataset, "--role-delay", "50", "--rest", "0"],
            directory: env.directory)
        let sim = simulator
        try await eventually("otbr-sim serves REST", wakingOn: sim.wakeups) { sim.stdout.contains("rest \(interface) ") || !sim.isRunning }
        url = String(try #require(sim.stdout.split(separator: "\n").first { $0.hasPrefix("rest \(interface) ") }?.split(separator: " ").last))
    }

    func stop() async {
        _ = await simulator.terminate()
        bus.stop()
    }
}

/// Runs `body` with a fresh ``DaemonEnvironment``, cleaned up whatever happens.
func withDaemon(policy: String = PrivateBus.permissivePolicy, _ body: (DaemonEnvironment) async throws -> Void) async throws {
    try await withPrivateBus(policy: policy) { bus in
        let env = try await DaemonEnvironment(bus: bus)
        do {
            try await body(env)
        } catch {
            await env.finish()
            throw error
        }
        await env.finish()
    }
}
