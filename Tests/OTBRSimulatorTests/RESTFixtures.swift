import DBus
import HTTP
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import OpenThreadREST
import TBRFoundation
import TBRTestKit
import Testing

/// A private bus with one in-process simulated agent (`wpan0`) that also serves the REST API on a free
/// loopback port, and a client of each: one agent, two ways in.
struct RESTEnvironment {
    let bus: PrivateBus
    let agent: SimulatedAgent
    let connection: Connection
    /// The D-Bus client.
    let dbus: BorderRouterAgent
    /// The REST client tbrd uses.
    let rest: RESTAgent
    /// Raw HTTP, for what the REST client does not ask.
    let http = HTTPClient(timeout: .seconds(10))

    /// The control object of the simulator (`io.tbrd.Simulator1`).
    var control: RemoteObject {
        RemoteObject(
            connection: connection, destination: dbus.interfaceName.busName,
            path: try! ObjectPath("/io/tbrd/Simulator/\(dbus.interfaceName)"), interface: SimulatedAgent.controlInterfaceName)
    }

    /// Calls a control method.
    @discardableResult
    func control(_ member: MemberName, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await control.call(member, arguments)
    }

    /// The key's state as the control interface reports it.
    func epskcState() async throws -> String { try await control.property("EphemeralKeyState", as: String.self) }

    /// Sends `method path` to the REST API with an optional body and headers.
    func send(
        _ method: String, _ path: String, body: String? = nil, contentType: String? = nil, accept: String? = nil
    ) async throws -> HTTPResponse {
        var headers: [(String, String)] = []
        if let contentType { headers.append(("Content-Type", contentType)) }
        if let accept { headers.append(("Accept", accept)) }
        return try await http.send(HTTPRequest(method, rest.base.appending(path), headers: headers, body: body.map { Array($0.utf8) }))
    }

    /// The JSON body of `GET path`.
    func json(_ path: String) async throws -> JSON {
        let response = try await send("GET", path)
        #expect(response.status == 200 && response.contentType == "application/json", "GET \(path): \(response.status)")
        return try JSON(parsing: response.text)
    }

    /// Waits until D-Bus signals `role` (after `start`), within 10 s.
    func waitForRole(_ role: DeviceRole, _ roles: AgentEventStream<DeviceRole>) async throws {
        let outcome = try await TimeLimit.run(.seconds(10), clock: SystemClock()) {
            for try await seen in roles where seen == role { return true }
            return false
        }
        guard case .finished(true) = outcome else { throw TestKitError("D-Bus never signalled role \(role)") }
    }
}

/// The first `count` events of `stream`, within 10 s.
func firstEvents<Element: Sendable>(_ stream: AgentEventStream<Element>, count: Int) async throws -> [Element] {
    let outcome = try await TimeLimit.run(.seconds(10), clock: SystemClock()) {
        var seen: [Element] = []
        for try await event in stream {
            seen.append(event)
            if seen.count == count { break }
        }
        return seen
    }
    guard case .finished(let seen) = outcome else { throw TestKitError("fewer than \(count) events in 10 s") }
    return seen
}

/// The simulator's delays made short, REST on `127.0.0.1:0`, and a 300 ms disconnect guard.
func restConfiguration(_ configure: (inout SimulatorConfiguration) -> Void = { _ in }) -> SimulatorConfiguration {
    var c = SimulatorConfiguration(interfaceName: "wpan0")
    c.roleDelay = .milliseconds(60)
    c.detachDelay = .milliseconds(20)
    c.restartDelay = .milliseconds(150)
    c.nat64Delay = .milliseconds(100)
    c.disconnectGuard = .milliseconds(300)
    c.restListen = RESTListenAddress(port: 0)
    configure(&c)
    return c
}

/// Runs `body` with a fresh private bus and a simulated agent serving D-Bus and REST, stopped afterwards.
func withRESTSimulator(
    configure: (inout SimulatorConfiguration) -> Void = { _ in }, clock: any TBRClock = SystemClock(),
    _ body: (RESTEnvironment) async throws -> Void
) async throws {
    try await withPrivateBus { bus throws in
        let agent = SimulatedAgent(configuration: restConfiguration(configure), bus: .address(bus.address), clock: clock)
        try await agent.start()
        let connection = try await Connection(bus: .address(bus.address))
        do {
            let url = try #require(await agent.restURL)
            let env = RESTEnvironment(
                bus: bus, agent: agent, connection: connection,
                dbus: BorderRouterAgent(connection: connection, interfaceName: "wpan0", networkTimeout: .seconds(10)),
                rest: RESTAgent(base: try HTTPURL(url), http: HTTPClient(timeout: .seconds(10))))
            try await body(env)
        } catch {
            await connection.close()
            await agent.stop()
            throw error
        }
        await connection.close()
        await agent.stop()
    }
}

/// A complete active dataset (channel 15, PAN ID 0x1234, extended PAN ID 1111111122222222, "OpenThreadDemo").
let sampleDataset: [UInt8] = try! Hex.decode(
    "0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd051000112233445566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce570a70efeecb0c0402a0f7f8"
)
