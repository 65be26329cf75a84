import BorderRouterService
import DBus
import DeviceModel
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import Synchronization
import TBRFoundation
import TBRTestKit
import Testing
import RouterFleet
import InternetAccessPolicy

/// Short simulator delays so that the suite stays fast; the behaviour is the same as with the defaults.
func fastConfiguration(_ name: ThreadInterfaceName, _ configure: (inout SimulatorConfiguration) -> Void) -> SimulatorConfiguration {
    var c = SimulatorConfiguration(interfaceName: name)
    c.roleDelay = .milliseconds(60)
    c.detachDelay = .milliseconds(20)
    c.restartDelay = .milliseconds(150)
    c.nat64Delay = .milliseconds(100)
    c.disconnectGuard = .milliseconds(100)
    configure(&c)
    return c
}

typealias Mgmt = ThreadNetworkManagementTrait

/// A private bus, simulated agents on it, and a running service over a connection of its own.
struct ServiceEnvironment: Sendable {
    let bus: PrivateBus
    let agents: [ThreadInterfaceName: SimulatedAgent]
    let connection: Connection
    let service: BorderRouterService
    let journal: RecordingJournal

    var home: Home { service.home }

    /// The simulated agent of `name`.
    func agent(_ name: ThreadInterfaceName = "wpan0") -> SimulatedAgent { agents[name]! }

    /// Calls a control method of the simulator for `name` (`io.tbrd.Simulator1`).
    @discardableResult
    func control(_ member: MemberName, _ arguments: [DBusValue] = [], on name: ThreadInterfaceName = "wpan0") async throws
        -> [DBusValue]
    {
        let remote = RemoteObject(
            connection: connection, destination: name.busName, path: try ObjectPath("/io/tbrd/Simulator/\(name)"),
            interface: SimulatedAgent.controlInterfaceName)
        return try await remote.call(member, arguments)
    }

    /// A client of the agent for `name` on the test's connection (to look behind the service's back).
    func client(_ name: ThreadInterfaceName = "wpan0") -> BorderRouterAgent {
        BorderRouterAgent(connection: connection, interfaceName: name, networkTimeout: .seconds(10))
    }

    /// The border router `id` and its management trait.
    func management(_ id: DeviceID = "wpan0") async throws -> (BorderRouterDevice, Mgmt) {
        let device = try await home.device(id: id)
        let br = try #require(device.type(BorderRouterDevice.self))
        return (br, try #require(br.traits(Mgmt.self)))
    }

    /// The simulator's ePSKc state (`stopped`, `started`, …).
    func epskcState(_ name: ThreadInterfaceName = "wpan0") async throws -> String {
        let remote = RemoteObject(
            connection: connection, destination: name.busName, path: try ObjectPath("/io/tbrd/Simulator/\(name)"),
            interface: SimulatedAgent.controlInterfaceName)
        return try await remote.property("EphemeralKeyState", as: String.self)
    }
}

/// The service configuration of the tests: the defaults (250 ms polls, 250 ms grace) with short timeouts.
func testServiceConfiguration(_ routers: [ThreadInterfaceName: RouterConfiguration] = [:]) -> BorderRouterServiceConfiguration {
    BorderRouterServiceConfiguration(
        routers: routers, agentCallTimeout: .seconds(5), agentNetworkTimeout: .seconds(10), leaveTimeout: .seconds(10))
}

/// Runs `body` with a private bus, one simulated agent per name in `routers` (configured by `configure`),
/// and a running ``BorderRouterService`` on `clock` with a recording journal. Everything is stopped
/// afterwards.
func withService(
    _ routers: [ThreadInterfaceName] = ["wpan0"],
    configure: (ThreadInterfaceName, inout SimulatorConfiguration) -> Void = { _, _ in },
    configuration: BorderRouterServiceConfiguration = testServiceConfiguration(),
    clock: any TBRClock = SystemClock(),
    _ body: (ServiceEnvironment) async throws -> Void
) async throws {
    try await withPrivateBus { bus throws in
        var agents: [ThreadInterfaceName: SimulatedAgent] = [:]
        for name in routers {
            let agent = SimulatedAgent(
                configuration: fastConfiguration(name) { configure(name, &$0) }, bus: .address(bus.address))
            try await agent.start()
            agents[name] = agent
        }
        let connection = try await Connection(bus: .address(bus.address))
        let journal = RecordingJournal()
        let service = BorderRouterService(
            connection: connection, configuration: configuration, clock: clock, eventSink: journal,
            advertisedNames: SimulatorAdvertisedNames(connection: connection))
        let env = ServiceEnvironment(bus: bus, agents: agents, connection: connection, service: service, journal: journal)
        do {
            try await service.withRunning { _ in try await body(env) }
        } catch {
            for agent in agents.values { await agent.stop() }
            await connection.close()
            throw error
        }
        for agent in agents.values { await agent.stop() }
        await connection.close()
    }
}

/// A journal that numbers events from 1 and remembers them with the restore records it was given.
final class RecordingJournal: EpskcEventSink {
    private let state = Locked<[(event: EpskcEvent, record: EpskcSessionRecord?)]>([])

    func journal(_ event: EpskcEvent, restoreRecord: EpskcSessionRecord?) async throws -> UInt64? {
        state.withLock {
            $0.append((event, restoreRecord))
            return UInt64($0.count)
        }
    }

    /// The events journalled so far.
    var events: [EpskcEvent] { state.withLock { $0.map(\.event) } }
    /// The restore records journalled so far (activations only).
    var records: [EpskcSessionRecord] { state.withLock { $0.compactMap(\.record) } }
}

/// Collects the elements of a stream in the background.
final class Recorder<Element: Sendable>: Sendable {
    private final class Box: Sendable {
        let items = Locked<[Element]>([])
        let arrivals = ChangeNotifier()
    }

    private let box = Box()
    private let task: Task<Void, Never>

    /// Starts collecting `stream`.
    init<S: AsyncSequence & Sendable>(_ stream: S) where S.Element == Element, S.Failure == Never {
        let box = self.box
        task = Task {
            for await element in stream {
                box.items.withLock { $0.append(element) }
                box.arrivals.changed()
            }
        }
    }

    deinit { task.cancel() }

    /// Everything collected so far.
    var elements: [Element] { box.items.withLock { $0 } }

    /// Waits until at least `count` elements arrived (or fails after `timeout`, generous so that a loaded
    /// machine does not fail a test that normally passes in milliseconds), then returns them all.
    func wait(for count: Int, timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> [Element]
    {
        do {
            try await eventually("\(count) elements arrive", timeout: timeout, wakingOn: box.arrivals.wakeups) { self.elements.count >= count }
        } catch {
            Issue.record("timed out waiting for \(count) elements; got \(elements.count)", sourceLocation: sourceLocation)
            throw error
        }
        return elements
    }
}

/// The wall time now.
func now() -> WallTime { WallTime(secondsSinceEpoch: SystemClock().wallTime()) }


/// A complete active dataset (channel 15, PAN ID 0x1234, extended PAN ID 1111111122222222, "OpenThreadDemo").
let sampleDataset: [UInt8] = try! Hex.decode(
    "0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd051000112233445566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce570a70efeecb0c0402a0f7f8"
)

/// `sampleDataset` as another network: a newer Active Timestamp, channel 20, another key, PAN ID and
/// extended PAN ID.
func otherDataset(activeTimestampSeconds: UInt64 = 2) -> [UInt8] {
    var d = try! OperationalDataset(bytes: sampleDataset)
    d.activeTimestamp = Timestamp(seconds: activeTimestampSeconds)
    d.channel = Channel(20)
    d.networkKey = NetworkKey(bytes: Array(repeating: 0x42, count: 16))
    d.panID = PANID(0x4321)
    d.extendedPANID = ExtendedPANID(0xAAAA_BBBB_CCCC_DDDD)
    return d.encoded()
}

extension SimulatorConfiguration {
    /// Starts as leader of `sampleDataset`.
    mutating func formed() { initialDataset = try! OperationalDataset(bytes: sampleDataset) }
}
