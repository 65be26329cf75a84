import DBus
import Foundation
import Synchronization
import OpenThreadBR
import TBRTestKit
import Testing
import TBRFoundation

/// A private bus with the built `otbr-sim` (and, for tbrd-mode tests, the built `tbrd`) on it, and the
/// built `tbrctl` pointed at that bus: what a user or a script runs, end to end.
struct Rig {
    /// The private bus.
    let bus: PrivateBus
    /// A connection of the test's own, to poke the simulator's control interface.
    let connection: Connection
    /// The tbrctl binary.
    let tbrctl: TbrctlBinary
    /// The running otbr-sim, if any.
    let sim: TestProcess?
    /// The running tbrd, if any.
    let tbrd: TbrdProcess?
    /// Every ePSKc a test handed to a commissioner: none may appear in tbrd's log.
    let usedKeys = KeyList()

    /// Short delays keep the suite fast; the behaviour is the same as with the defaults.
    static let fastSimulator = ["--role-delay", "50", "--detach-delay", "20", "--restart-delay", "200", "--nat64-delay", "100", "--disconnect-guard", "100"]

    /// Runs `tbrctl --bus <this bus> arguments…`.
    func run(_ arguments: [String], input: String = "") async throws -> ProcessResult {
        try await tbrctl.run(["--bus", bus.address] + arguments, input: input)
    }

    /// Runs tbrctl and decodes its standard output as a JSON object.
    func json(_ arguments: [String], input: String = "") async throws -> (ProcessResult, [String: Any]) {
        let result = try await run(arguments, input: input)
        let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return (result, try #require(object as? [String: Any], "\(arguments) printed no JSON object: \(result.stderr)"))
    }

    /// Runs tbrctl and decodes its standard output as a JSON array of objects.
    func jsonArray(_ arguments: [String]) async throws -> (ProcessResult, [[String: Any]]) {
        let result = try await run(arguments)
        let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return (result, try #require(object as? [[String: Any]], "\(arguments) printed no JSON array: \(result.stderr)"))
    }

    /// Starts `tbrctl --bus <this bus> arguments…` in the background (for `epskc watch`).
    func spawn(_ arguments: [String]) throws -> TestProcess {
        try TestProcess(tbrctl.path, ["--bus", bus.address] + arguments, directory: bus.directory)
    }

    /// Calls `member` of the simulator's control interface `io.tbrd.Simulator1` for `interface`.
    @discardableResult
    func control(_ interface: ThreadInterfaceName, _ member: MemberName, _ arguments: [DBusValue] = []) async throws
        -> [DBusValue]
    {
        let object = RemoteObject(
            connection: connection, destination: interface.busName, path: try ObjectPath("/io/tbrd/Simulator/\(interface)"),
            interface: "io.tbrd.Simulator1")
        return try await object.call(member, arguments)
    }

    /// A commissioner uses `key` on `interface`'s router (connects, reads the dataset, disconnects).
    func useKey(_ key: String, on interface: ThreadInterfaceName) async throws -> Bool {
        usedKeys.keys.withLock { $0.append(key) }
        let reply = try await control(interface, "UseEphemeralKey", [.string(key)])
        return reply.first == .bool(true)
    }

    /// The Border Agent ID of `interface`'s agent, in hex.
    func borderAgentID(_ interface: ThreadInterfaceName) async throws -> String {
        try await BorderRouterAgent(connection: connection, interfaceName: interface).read(.borderAgentID).description
    }
}

/// Runs `body` with a private bus, otbr-sim serving `interfaces` (leaders of dataset A unless
/// `simulatorArguments` says otherwise; none when `interfaces` is empty), tbrd when `withTbrd`, and
/// everything stopped afterwards.
func withRig(
    _ interfaces: [ThreadInterfaceName] = ["wpan0"], simulatorArguments: [String] = ["--dataset", Vectors.datasetA],
    withTbrd: Bool = false, tbrdConfiguration: String = "", tbrdEnvironment: [String: String] = [:],
    policy: String = PrivateBus.permissivePolicy, _ body: (Rig) async throws -> Void
) async throws {
    try await withPrivateBus(policy: policy) { bus throws in
        let connection = try await Connection(bus: .address(bus.address))
        var sim: TestProcess?
        if !interfaces.isEmpty {
            let process = try TestProcess(
                try Executables.product("otbr-sim"),
                ["--bus", bus.address] + interfaces.flatMap { ["--interface", $0.rawValue] } + Rig.fastSimulator
                    + simulatorArguments,
                directory: bus.directory)
            sim = process
            try await eventually("otbr-sim is ready", timeout: .seconds(10), wakingOn: process.wakeups) {
                process.stdout.split(separator: "\n").filter { $0.hasPrefix("ready ") }.count == interfaces.count
            }
            if simulatorArguments.contains("--dataset") {
                for name in interfaces {
                    let agent = BorderRouterAgent(connection: connection, interfaceName: name)
                    try await eventually("\(name) is leader", timeout: .seconds(10), wakingOn: agent.remote.wakeups) { try await agent.deviceRole() == .leader }
                }
            }
        }
        var tbrd: TbrdProcess?
        if withTbrd {
            let process = try TbrdProcess(bus: bus)
            tbrd = process
            try await process.start(
                expecting: interfaces.count, connection: connection, extraConfiguration: tbrdConfiguration, environment: tbrdEnvironment)
        }
        let rig = Rig(bus: bus, connection: connection, tbrctl: try TbrctlBinary(), sim: sim, tbrd: tbrd)
        do {
            try await body(rig)
        } catch {
            if let tbrd { print("tbrd's log:\n\(tbrd.log)") }
            await tbrd?.stop()
            await sim?.terminate()
            await connection.close()
            throw error
        }
        if let tbrd {
            #expect(await tbrd.stop() == 0, "tbrd stops cleanly on SIGTERM")
            // Secrets never reach tbrd's log: the keys the test used, and dataset A's network key.
            let log = tbrd.log
            for key in rig.usedKeys.keys.withLock({ $0 }) + ["00112233445566778899aabbccddeeff"] {
                #expect(!log.contains(key), "a secret reached tbrd's log")
            }
        }
        await sim?.terminate()
        await connection.close()
    }
}

/// The built `tbrd` on a rig's bus, with its state in the bus's directory; it can be stopped and
/// started again on the same state.
final class TbrdProcess: Sendable {
    private let bus: PrivateBus
    private let state: URL
    private let process = Locked<TestProcess?>(nil)
    private let logs = Locked<String>("")

    init(bus: PrivateBus) throws {
        self.bus = bus
        state = bus.directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    }

    /// Starts tbrd and waits until it owns `io.tbrd` and knows `routers` routers. Its configuration says
    /// `firewall = off` (and `extraConfiguration`): it runs in the host's network namespace, whose
    /// firewall no test touches. `environment` is added to the test's own.
    func start(
        expecting routers: Int, connection: Connection, extraConfiguration: String = "", environment: [String: String] = [:]
    ) async throws {
        let conf = bus.directory.appendingPathComponent("tbrd.conf")
        try ("firewall = off\n" + extraConfiguration).write(to: conf, atomically: true, encoding: .utf8)
        let started = try TestProcess(
            try Executables.product("tbrd"), ["--bus", bus.address, "--state-dir", state.path, "--config", conf.path],
            directory: bus.directory, environment: environment)
        process.withLock { $0 = started }
        let manager = RemoteObject(connection: connection, destination: "io.tbrd", path: "/io/tbrd", interface: "io.tbrd.Manager1")
        try await eventually("tbrd owns io.tbrd and knows the routers", timeout: .seconds(10)) {
            guard started.isRunning else { throw TestKitError("tbrd exited: \(started.stderr)") }
            guard try await connection.nameOwner(of: "io.tbrd") != nil,
                case .array(_, let list)? = try await manager.call("ListBorderRouters").first
            else { return false }
            return list.count == routers
        }
    }

    /// Stops tbrd with `signal` (SIGKILL for a crash) and returns its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) async -> Int32 {
        guard let running = process.withLock({ $0 }) else { return 0 }
        let status = await running.terminate(signal: signal)
        logs.withLock { $0 += running.stderr }
        process.withLock { $0 = nil }
        return status
    }

    /// Everything tbrd has logged, across restarts.
    var log: String { logs.withLock { $0 } + (process.withLock { $0 }?.stderr ?? "") }
}


/// The lines a background tbrctl has printed so far, decoded as JSON objects.
func jsonLines(_ process: TestProcess) -> [[String: Any]] {
    process.stdout.split(separator: "\n").compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
}

/// The note tbrctl prints once in direct mode.
let directModeNote = "tbrctl: tbrd is not running; talking to otbr-agent directly (ePSKc events are inferred by this process)\n"

/// An ISO 8601 UTC time with milliseconds, as `epskc watch` prints them.
func isISOTime(_ value: Any?) -> Bool {
    guard let text = value as? String else { return false }
    return text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil
}

/// The keys a rig's test used (shared by copies of the rig).
final class KeyList: Sendable {
    let keys = Locked<[String]>([])
}

/// Runs `body` with matter-sim started with `arguments` and a rig whose tbrd uses it as its Matter
/// commissioner (python-matter-server's API); matter-sim is stopped afterwards.
func withMatterRig(_ arguments: [String], _ body: (Rig, MatterSimProcess) async throws -> Void) async throws {
    let sim = try await MatterSimProcess.start(arguments)
    do {
        try await withRig(withTbrd: true, tbrdConfiguration: sim.tbrdConfiguration) { rig throws in try await body(rig, sim) }
    } catch {
        await sim.stop()
        throw error
    }
    await sim.stop()
}
