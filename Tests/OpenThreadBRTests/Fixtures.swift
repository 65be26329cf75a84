import DBus
import Foundation
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import TBRFoundation
import TBRTestKit
import Testing

/// Short delays so that the suite stays fast; the behaviour is the same as with the defaults.
func fastConfiguration(_ name: ThreadInterfaceName, _ configure: (inout SimulatorConfiguration) -> Void = { _ in })
    -> SimulatorConfiguration
{
    var c = SimulatorConfiguration(interfaceName: name)
    c.roleDelay = .milliseconds(60)
    c.detachDelay = .milliseconds(20)
    c.restartDelay = .milliseconds(150)
    c.nat64Delay = .milliseconds(100)
    c.disconnectGuard = .milliseconds(100)
    configure(&c)
    return c
}

/// A private bus with one in-process simulated agent and a client connection.
struct SimEnvironment {
    let bus: PrivateBus
    let agent: SimulatedAgent
    let connection: Connection
    let client: BorderRouterAgent

    var address: String { bus.address }
    var name: ThreadInterfaceName { client.interfaceName }

    /// The control object of the simulator.
    var control: RemoteObject {
        RemoteObject(
            connection: connection, destination: name.busName, path: try! ObjectPath("/io/tbrd/Simulator/\(name)"),
            interface: SimulatedAgent.controlInterfaceName)
    }

    /// Calls a control method.
    @discardableResult
    func control(_ member: MemberName, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await control.call(member, arguments)
    }
}

/// Runs `body` with a fresh private bus, a simulated agent for `wpan0` started on it, and a client.
///
/// The body returns nothing: a generic result type makes closures whose only `try`s sit in `#expect`
/// fail to type-check (a compiler issue with macros in generic closures).
func withSimulator(
    _ name: ThreadInterfaceName = "wpan0", policy: String = PrivateBus.permissivePolicy,
    configure: (inout SimulatorConfiguration) -> Void = { _ in }, _ body: (SimEnvironment) async throws -> Void
) async throws {
    try await withPrivateBus(policy: policy) { bus throws in
        let agent = SimulatedAgent(configuration: fastConfiguration(name, configure), bus: .address(bus.address))
        try await agent.start()
        let connection = try await Connection(bus: .address(bus.address))
        let client = BorderRouterAgent(connection: connection, interfaceName: name, networkTimeout: .seconds(10))
        let env = SimEnvironment(bus: bus, agent: agent, connection: connection, client: client)
        do {
            try await body(env)
            await connection.close()
            await agent.stop()
        } catch {
            await connection.close()
            await agent.stop()
            throw error
        }
    }
}

/// A complete active dataset (channel 15, PAN ID 0x1234, extended PAN ID 1111111122222222).
let sampleDataset: [UInt8] = try! Hex.decode(
    "0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd051000112233445566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce570a70efeecb0c0402a0f7f8"
)

/// `sampleDataset` with other values: a newer Active Timestamp, another channel, network key and PAN ID.
func otherDataset(activeTimestampSeconds: UInt64 = 2, channel: UInt16 = 20) -> [UInt8] {
    var d = try! OperationalDataset(bytes: sampleDataset)
    d.activeTimestamp = Timestamp(seconds: activeTimestampSeconds)
    d.channel = Channel(channel)
    d.networkKey = NetworkKey(bytes: Array(repeating: 0x42, count: 16))
    d.panID = PANID(0x4321)
    return d.encoded()
}

/// The OpenThread error of an agent error, or nil.
func otError(_ body: () async throws -> Void) async -> OpenThreadError? {
    do { try await body() } catch let e as AgentError { return e.openThreadError } catch { return nil }
    return nil
}

/// The cause of an agent error thrown by `body`, or nil if it succeeds or throws something else.
func agentCause(_ body: () async throws -> Void) async -> AgentError.Cause? {
    do { try await body() } catch let e as AgentError { return e.cause } catch { return nil }
    return nil
}


/// Collects elements of `stream` until `count` arrived or `timeout` passed. A passing test returns as soon
/// as `count` arrived, so the default timeout (30 s, as `eventually`'s) only bounds how long a failing one
/// waits: 5 s was outrun on a loaded machine. A test that expects nothing passes a short one.
func collect<S: AsyncSequence & Sendable>(_ stream: S, count: Int, timeout: Duration = .seconds(30)) async -> [S.Element]
where S.Element: Sendable {
    // The elements so far are kept outside the bounded work, so that a timeout still returns them.
    let collected = Locked<[S.Element]>([])
    _ = try? await TimeLimit.run(timeout, clock: SystemClock()) {
        for try await e in stream {
            let done = collected.withLock { out in
                out.append(e)
                return out.count == count
            }
            if done { break }
        }
    }
    return collected.withLock { $0 }
}

/// Runs `dbus-send` against the agent: an independent client.
struct DBusSend {
    let address: String
    let interfaceName: ThreadInterfaceName

    /// Calls `member` of `interface` (default `io.openthread.BorderRouter`) with dbus-send's typed
    /// arguments such as `uint32:0`.
    func call(_ member: String, _ arguments: [String] = [], interface: String = "io.openthread.BorderRouter",
              path: String? = nil, timeoutMs: Int = 5000) async throws -> ProcessResult {
        let tool = try Executables.find("dbus-send", package: "dbus-bin")
        return try await ProcessRunner.run(
            tool,
            ["--bus=\(address)", "--print-reply", "--reply-timeout=\(timeoutMs)", "--dest=\(interfaceName.busName)",
             path ?? interfaceName.objectPath.rawValue, "\(interface).\(member)"] + arguments)
    }

    /// `Properties.Get` of an agent property.
    func get(_ property: String) async throws -> ProcessResult {
        try await call(
            "Get", ["string:io.openthread.BorderRouter", "string:\(property)"], interface: "org.freedesktop.DBus.Properties")
    }
}

extension SimEnvironment {
    /// dbus-send against this environment's agent.
    var dbusSend: DBusSend { DBusSend(address: address, interfaceName: name) }

    /// Stores `sampleDataset`, enables Thread and waits until the agent is leader.
    func formNetwork(_ tlvs: [UInt8] = sampleDataset) async throws {
        try await client.setActiveDatasetTLVs(tlvs)
        try await client.attach()
        #expect(try await client.deviceRole() == .leader)
    }
}
