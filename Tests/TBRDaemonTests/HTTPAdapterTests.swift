import TBRCoreServices
import DBus
import Foundation
import HTTPMessages
import TBRCore
import TBRFoundation
import TBRTestKit
import Testing

@testable import TBRDaemon
@testable import TBRHTTPAdapter

/// The HTTP adapter as a function, request in and response out, over tbrd's real core in this process
/// (otbr-sim on a private bus): no server, no TLS, no curl. What the HTTPS suites check through the
/// network, these check at the seam (issue 47).
@Suite struct HTTPAdapterTests {
    /// tbrd's core in this process, serving (io.tbrd taken), and the adapter over it.
    struct Rig {
        let runtime: DaemonRuntime
        let adapter: HTTPAdapter
        let serving: Task<Void, any Error>
        /// The adapter's ``HTTPAdapter/run()``: the core's events to the clients' streams.
        let forwarding: Task<Void, Never>
        let records: MigrationSequenceTests.Records

        func stop() {
            forwarding.cancel()
            serving.cancel()
        }

        /// A request to the adapter, with `token` as its bearer.
        func ask(_ method: String, _ path: String, token: String? = nil, json: String? = nil, query: String = "") async -> HTTPServerResponse {
            var headers: [String: String] = ["host": "tbrd.test"]
            if let token { headers["authorization"] = "Bearer " + token }
            return await adapter.answer(
                HTTPServerRequest(
                    method: method, path: path, query: query, contentType: json == nil ? nil : "application/json", headers: headers,
                    body: Array((json ?? "").utf8), clientAddress: "192.0.2.1"))
        }
    }

    static func rig(_ env: DaemonEnvironment) async throws -> Rig {
        var configuration = DaemonConfiguration()
        configuration.bus = .address(env.address)
        configuration.stateDirectory = env.stateDirectory
        configuration.firewall = .off
        let records = MigrationSequenceTests.Records()
        let runtime = try await DaemonRuntime.start(
            configuration: configuration, logger: Logger(label: "tbrd", minimumLevel: .debug, sink: records), clock: SystemClock(),
            notifier: ServiceNotifier(environment: [:]), browsesMDNS: false)
        let serving = Task { try await runtime.serve() }
        try await eventually("tbrd owns io.tbrd", wakingOn: env.client.ownerWakeups(of: "io.tbrd")) {
            try await env.client.nameOwner(of: "io.tbrd") != nil
        }
        let adapter = HTTPAdapter(core: runtime.core, logger: Logger(label: "api", minimumLevel: .debug, sink: records))
        return Rig(runtime: runtime, adapter: adapter, serving: serving, forwarding: Task { await adapter.run() }, records: records)
    }

    static func json(_ response: HTTPServerResponse) -> Any? { try? JSONSerialization.jsonObject(with: Data(response.body)) }

    static func problemType(_ response: HTTPServerResponse) -> String? { (json(response) as? [String: Any])?["type"] as? String }

    @Test func everyRequestNeedsATokenAndEachScopeItsOwn() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            let rig = try await Self.rig(env)
            defer { rig.stop() }
            let read = try await rig.runtime.authenticator.createToken("dashboard", scope: "read")

            let anonymous = await rig.ask("GET", "/api/v1/routers")
            #expect(anonymous.status == 401 && Self.problemType(anonymous) == "urn:tbrd:problem:unauthorized")
            #expect(anonymous.headers["WWW-Authenticate"] == #"Bearer realm="tbrd""#)
            #expect(anonymous.contentType == "application/problem+json")
            #expect(await rig.ask("GET", "/").status == 200, "the page itself holds no data and needs no token")

            let listing = await rig.ask("GET", "/api/v1/routers", token: read)
            #expect(listing.status == 200 && listing.headers["Cache-Control"] == "no-store")
            #expect((Self.json(listing) as? [[String: Any]])?.map { $0["id"] as? String } == ["wpan0"])
            #expect(Self.same(Self.json(listing), try await HTTPAPITests.tbrctlJSON(env, ["list"])), "the document tbrctl --json list prints")

            let refused = await rig.ask("POST", "/api/v1/routers/wpan0/epskc", token: read, json: #"{"durationSeconds": 30}"#)
            #expect(refused.status == 403 && Self.problemType(refused) == "urn:tbrd:problem:forbidden")
            let missing = await rig.ask("GET", "/api/v1/routers/nope", token: read)
            #expect(missing.status == 404 && (Self.json(missing) as? [String: Any])?["exitStatus"] as? Int == 1)
            let admin = try await rig.runtime.authenticator.createToken("controller", scope: "admin")
            let badQuery = await rig.ask("GET", "/api/v1/routers/wpan0/dataset", token: admin, query: "secrets=yes")
            #expect(badQuery.status == 400 && Self.problemType(badQuery) == "urn:tbrd:problem:invalid-argument")
        }
    }

    /// A key started through the adapter reaches an open event stream as its journalled `epskc` event,
    /// and a stream resumed with Last-Event-ID replays it from the journal.
    @Test func anEpskcStartedHereReachesTheEventStreams() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            let rig = try await Self.rig(env)
            defer { rig.stop() }
            let phone = try await rig.runtime.authenticator.createToken("phone", scope: "epskc")
            let router = env.router("wpan0")
            try await eventually("wpan0 is a leader", wakingOn: router.wakeups) { try await router.property("Role", as: String.self) == "leader" }

            let events = await rig.ask("GET", "/api/v1/events", token: phone)
            let stream = try #require(events.stream, "an event stream")
            #expect(events.contentType == "text/event-stream")
            let reader = StreamReader(stream)

            let started = await rig.ask("POST", "/api/v1/routers/wpan0/epskc", token: phone, json: #"{"durationSeconds": 30}"#)
            let activation = try #require(Self.json(started) as? [String: Any])
            let key = try #require(activation["epskc"] as? String)
            env.secrets.append(key)
            #expect(activation["status"] as? String == "success" && key.count == 9)
            try await reader.waitFor("event: epskc\n")
            #expect(!reader.text.contains(key), "the key is never in an event")
            #expect(await rig.ask("DELETE", "/api/v1/routers/wpan0/epskc", token: phone).status == 204)
            try await reader.waitFor("\"event\":\"epskcModeDeactivated\"")

            let replay = try #require(await rig.ask("GET", "/api/v1/events", token: phone, lastEventID: "0").stream)
            let replayed = StreamReader(replay)
            try await replayed.waitFor("\"event\":\"epskcModeDeactivated\"")
            #expect(replayed.text.contains("id: 1\nevent: epskc\n"), "the journal from the start, its sequence the id")
        }
    }

    static func same(_ a: Any?, _ b: Any?) -> Bool { HTTPAPITests.same(a, b) }
}

extension HTTPAdapterTests.Rig {
    /// A request with `Last-Event-ID`.
    func ask(_ method: String, _ path: String, token: String, lastEventID: String) async -> HTTPServerResponse {
        await adapter.answer(
            HTTPServerRequest(
                method: method, path: path, headers: ["host": "tbrd.test", "authorization": "Bearer " + token, "last-event-id": lastEventID],
                clientAddress: "192.0.2.1"))
    }
}

/// Reads a response stream as a server would, waking when something is queued (never on a timer).
final class StreamReader: Sendable {
    let stream: HTTPResponseStream
    private let received = Locked("")
    private let changes = ChangeNotifier()

    init(_ stream: HTTPResponseStream) {
        self.stream = stream
        let changes = self.changes
        stream.attach(park: {}, unpark: { changes.changed() })
    }

    var text: String { received.withLock { $0 } }

    /// Takes what is queued until the text holds `needle`.
    func waitFor(_ needle: String) async throws {
        try await eventually("the stream shows \(needle.debugDescription)", wakingOn: changes.wakeups) {
            while case .bytes(let bytes) = self.stream.take(maximum: 1 << 16) {
                self.received.withLock { $0 += String(decoding: bytes, as: UTF8.self) }
            }
            return self.text.contains(needle)
        }
    }
}
