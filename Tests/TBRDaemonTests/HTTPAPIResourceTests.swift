import DBus
import Foundation
import TBRTestKit
import Testing

@testable import TBRDaemon

/// The rest of what tbrctl does through tbrd, over the HTTPS API (docs/http-api.md): each resource
/// answers the document `tbrctl --json` prints, writes need the admin scope, and secrets are redacted
/// unless asked for.
@Suite struct HTTPAPIResourceTests {
    private typealias API = HTTPAPITests

    /// JSON with the members that change from one reading to the next (a neighbour's age, when a
    /// network was last seen) taken out.
    private static func steady(_ value: Any?) -> Any? {
        switch value {
        case let object as [String: Any]:
            var copy: [String: Any] = [:]
            for (key, member) in object where key != "age" && key != "lastSeen" { copy[key] = steady(member) }
            return copy
        case let array as [Any]: return array.map { steady($0) as Any }
        default: return value
        }
    }

    /// otbr-sim (wpan0) and tbrd with the API on loopback: its base URL, and a read and an admin token.
    private static func start(_ env: DaemonEnvironment) async throws -> (base: String, read: String, admin: String) {
        try await env.startSimulator(["wpan0"])
        try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\n"))
        return (try await API.base(env), try await API.token(env, "dashboard", "read"), try await API.token(env, "controller", "admin"))
    }

    @Test func theMeshTheDoctorAndTheDatasetAreServedAsTbrctlPrintsThem() async throws {
        try await withDaemon { env throws in
            let (base, read, admin) = try await Self.start(env)
            try await eventually("wpan0 is attached", timeout: .seconds(20), wakingOn: env.router("wpan0").wakeups) {
                let role = try await env.router("wpan0").property("Role", as: String.self)
                return role == "leader" || role == "router"
            }

            _ = try await env.simulatorControl("wpan0").call(
                "AddNode", [.string("child"), .uint64(0xC1C1_C1C1_C1C1_C1C1), .uint64(0), .byte(2), .bool(false), .bool(false), .uint32(240)])
            let mesh = try await API.curl(["\(base)/api/v1/routers/wpan0/mesh"], token: read)
            #expect(mesh.status == 200)
            #expect(API.same(Self.steady(mesh.json), Self.steady(try await API.tbrctlJSON(env, ["mesh", "-d", "wpan0"]))))
            let nodes = try #require((mesh.json as? [String: Any])?["nodes"] as? [[String: Any]])
            let own = try #require(nodes.first { $0["source"] as? String == "self" }?["extAddress"] as? String)

            // The picture: Graphviz's SVG of the same graph, every node by its extended address.
            let picture = try await API.curl(["\(base)/api/v1/routers/wpan0/mesh.svg"], token: read)
            #expect(picture.status == 200 && picture.headers.lowercased().contains("content-type: image/svg+xml"))
            #expect(picture.body.contains("<svg") && picture.body.contains(own) && picture.body.contains("c1c1c1c1c1c1c1c1"))

            let doctor = try await API.curl(["\(base)/api/v1/routers/wpan0/doctor"], token: read)
            let report = try #require(doctor.json as? [String: Any])
            let checks = try #require(report["checks"] as? [[String: Any]])
            // tbrctl doctor exits 1 when a check fails (on this host, the route to the mesh); its JSON is the same.
            let printed = try await API.tbrctl(env, ["--json", "doctor", "-d", "wpan0"])
            let cli = try #require(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any])
            #expect(report["router"] as? String == "wpan0" && cli["router"] as? String == "wpan0")
            #expect(checks.map { $0["id"] as? String } == (cli["checks"] as? [[String: Any]])?.map { $0["id"] as? String })
            #expect(checks.contains { $0["id"] as? String == "agent-reachable" && $0["status"] as? String == "pass" })

            // The dataset is for admins; redacted unless asked, then as dataset show --reveal-secrets prints it.
            let refused = try await API.curl(["\(base)/api/v1/routers/wpan0/dataset"], token: read)
            #expect(refused.status == 403)
            let redacted = try await API.curl(["\(base)/api/v1/routers/wpan0/dataset"], token: admin)
            #expect(redacted.status == 200 && !redacted.body.contains(demoNetworkKey) && redacted.body.contains("<redacted>"))
            #expect(API.same(redacted.json, try await API.tbrctlJSON(env, ["dataset", "show", "-d", "wpan0"])))
            let revealed = try await API.curl(["\(base)/api/v1/routers/wpan0/dataset?revealSecrets=true"], token: admin)
            #expect(revealed.body.contains(demoNetworkKey))
            #expect(API.same(revealed.json, try await API.tbrctlJSON(env, ["dataset", "show", "-d", "wpan0", "--reveal-secrets"])))
            let pending = try await API.curl(["\(base)/api/v1/routers/wpan0/dataset?pending=true"], token: admin)
            #expect(pending.status == 404 && pending.problemType == "urn:tbrd:problem:not-found", "no pending dataset: \(pending.body)")
            let unknown = try await API.curl(["\(base)/api/v1/routers/wpan0/dataset?reveal=yes"], token: admin)
            #expect(unknown.status == 400, "an unknown query is refused, not ignored")

            // Leave, then join again with the dataset as hex; a bad dataset is refused with nothing sent.
            let json = ["-H", "Content-Type: application/json"]
            #expect(try await API.curl(["-X", "POST", "\(base)/api/v1/routers/wpan0/leave"], token: read).status == 403)
            let left = try await API.curl(json + ["-X", "POST", "\(base)/api/v1/routers/wpan0/leave"], token: admin)
            #expect(left.status == 200 && API.same(left.json, ["router": "wpan0", "status": "success"]))
            let bad = try await API.curl(json + ["-d", #"{"dataset": "0e08zz"}"#, "\(base)/api/v1/routers/wpan0/join"], token: admin)
            #expect(bad.status == 400 && (bad.json as? [String: Any])?["exitStatus"] as? Int == 65)
            let joined = try await API.curl(
                json + ["-d", #"{"dataset": "\#(demoDataset)", "thisRouterOnly": true}"#, "\(base)/api/v1/routers/wpan0/join"], token: admin)
            #expect(joined.status == 200 && API.same(joined.json, ["status": "success", "migrationDelaySeconds": 0]), "\(joined.body)")
        }
    }

    @Test func structuresTheirRoutersRoomsAndNetworksAreManagedOverTheAPI() async throws {
        try await withDaemon { env throws in
            let (base, read, admin) = try await Self.start(env)
            let json = ["-H", "Content-Type: application/json"]

            #expect(try await API.curl(json + ["-d", #"{"name": "Home"}"#, "\(base)/api/v1/structures"], token: read).status == 403)
            let created = try await API.curl(json + ["-d", #"{"name": "Home"}"#, "\(base)/api/v1/structures"], token: admin)
            #expect(created.status == 201 && (created.json as? [String: Any])?["name"] as? String == "Home")
            let again = try await API.curl(json + ["-d", #"{"name": "Home"}"#, "\(base)/api/v1/structures"], token: admin)
            #expect(again.status == 409 || again.status == 400, "a second Home is refused: \(again.status) \(again.body)")
            try await eventually("tbrd knows wpan0") {
                (try await API.curl(["\(base)/api/v1/routers"], token: read).json as? [Any])?.count == 1
            }
            let added = try await API.curl(["-X", "PUT", "\(base)/api/v1/structures/Home/routers/wpan0"], token: admin)
            #expect(added.status == 200 && (added.json as? [String: Any])?["routers"] as? [String] == ["wpan0"])
            let shown = try await API.curl(["\(base)/api/v1/structures/Home"], token: read)
            #expect(API.same(shown.json, try await API.tbrctlJSON(env, ["structure", "show", "Home"])))

            let rooms = try await API.curl(["-X", "PUT", "\(base)/api/v1/structures/Home/rooms/Living%20room"], token: admin)
            #expect(rooms.status == 200 && API.same(rooms.json, ["Living room"]))
            #expect(API.same(try await API.curl(["\(base)/api/v1/structures/Home/rooms"], token: read).json,
                             try await API.tbrctlJSON(env, ["structure", "room", "list", "Home"])))
            let networks = try await API.curl(["\(base)/api/v1/structures/Home/networks"], token: read)
            #expect(networks.status == 200 && (networks.json as? [[String: Any]])?.first?["extPanId"] as? String == "1111111122222222")
            #expect(!networks.body.contains(demoNetworkKey))
            #expect(API.same(Self.steady(networks.json), Self.steady(try await API.tbrctlJSON(env, ["network", "list", "--structure", "Home"]))))
            #expect(API.same(try await API.curl(["\(base)/api/v1/structures/Home/nodes"], token: read).json, [Any]()))

            #expect(API.same(try await API.curl(["-X", "DELETE", "\(base)/api/v1/structures/Home/rooms/Living%20room"], token: admin).json, [Any]()))
            let removed = try await API.curl(["-X", "DELETE", "\(base)/api/v1/structures/Home/routers/wpan0"], token: admin)
            #expect((removed.json as? [String: Any])?["routers"] as? [String] == [])
            let deleted = try await API.curl(["-X", "DELETE", "\(base)/api/v1/structures/Home"], token: admin)
            #expect(deleted.status == 200 && API.same(deleted.json, ["deleted": "Home"]))
            #expect(try await API.curl(["\(base)/api/v1/structures/Home"], token: read).status == 404)
        }
    }

    @Test func commissioningOverTheAPIStreamsItsStagesAndNamesTheNode() async throws {
        try await withDaemon { env throws in
            let rig = try await CommissioningRig.start(env, matterSim: CommissioningTests.simulated, extra: "http-listen = 127.0.0.1:0\n")
            let base = try await API.base(env)
            let read = try await API.token(env, "dashboard", "read")
            let admin = try await API.token(env, "controller", "admin")
            let json = ["-H", "Content-Type: application/json"]
            _ = try await API.curl(["-X", "PUT", "\(base)/api/v1/structures/Home/rooms/Kitchen"], token: admin)
            let curl = try Executables.find("curl", package: "curl")
            let stream = try TestProcess(curl, ["-s", "-N", "-H", "Authorization: Bearer \(read)", "\(base)/api/v1/events"], directory: env.directory)
            try await eventually("the event stream is open", wakingOn: stream.wakeups) { stream.stdout.contains(": open") }

            let code = CommissioningRig.code(discriminator: 100)
            env.secrets.append(code)
            let body = #"{"codes": ["\#(code)"], "name": "Lamp", "room": "Kitchen"}"#
            #expect(try await API.curl(json + ["-d", body, "\(base)/api/v1/structures/Home/commissioning"], token: read).status == 403)
            let bad = try await API.curl(json + ["-d", #"{"codes": ["MT:NOPE"]}"#, "\(base)/api/v1/structures/Home/commissioning"], token: admin)
            #expect(bad.status == 400 && bad.body.contains("code 1 is not a valid onboarding payload"), "\(bad.body)")
            let started = try await API.curl(json + ["-d", body, "\(base)/api/v1/structures/Home/commissioning"], token: admin)
            #expect(started.status == 202, "\(started.body)")
            let payloads = try #require((started.json as? [String: Any])?["payloads"] as? [[String: Any]])
            #expect(payloads.count == 1 && payloads[0]["payload"] as? Int == 1)

            try await eventually("the complete stage arrives on the stream", timeout: .seconds(60), wakingOn: stream.wakeups) {
                stream.stdout.contains(#""stage":"complete""#) || stream.stdout.contains(#""stage":"failed""#)
            }
            let stages = stream.stdout.split(separator: "\n").filter { $0.hasPrefix("data: ") && $0.contains(#""structure":"Home""#) }
                .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8))) as? [String: Any] }
                .compactMap { $0["stage"] as? String }
            #expect(stages.first == "queued" && stages.last == "complete", "\(stages)")
            #expect(stages.contains("credentialsHandedOver") && stages.contains("nodeAdded"))
            #expect(!stream.stdout.contains(code), "the code never goes out")
            let nodes = try await API.curl(["\(base)/api/v1/structures/Home/nodes"], token: read)
            let node = try #require((nodes.json as? [[String: Any]])?.first)
            #expect(node["name"] as? String == "Lamp" && node["room"] as? String == "Kitchen")
            #expect(API.same(nodes.json, try await API.tbrctlJSON(env, ["matter", "nodes", "--structure", "Home"])))

            // Cancelled: the codes still queued fail at queued; the one being commissioned finishes.
            let codes = [CommissioningRig.code(discriminator: 300), CommissioningRig.code(discriminator: 200)]
            env.secrets += codes
            let batch = try await API.curl(
                json + ["-d", #"{"codes": ["\#(codes[0])", "\#(codes[1])"]}"#, "\(base)/api/v1/structures/Home/commissioning"], token: admin)
            let session = try #require((batch.json as? [String: Any])?["session"] as? String)
            func stagesOf(_ payload: String) -> [[String: Any]] {
                stream.stdout.split(separator: "\n").filter { $0.hasPrefix("data: ") }
                    .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8))) as? [String: Any] }
                    .filter { $0["session"] as? String == session && $0["payloadId"] as? String == payload }
            }
            try await eventually("the slow device is being commissioned", wakingOn: stream.wakeups) {
                stagesOf("1").contains { $0["stage"] as? String == "commissioning" }
            }
            #expect(try await API.curl(["-X", "DELETE", "\(base)/api/v1/structures/Home/commissioning/\(session)"], token: read).status == 403)
            let cancelled = try await API.curl(["-X", "DELETE", "\(base)/api/v1/structures/Home/commissioning/\(session)"], token: admin)
            #expect(cancelled.status == 204, "\(cancelled.body)")
            try await eventually("both codes have ended", timeout: .seconds(30), wakingOn: stream.wakeups) {
                stagesOf("2").last?["stage"] as? String == "failed" && stagesOf("1").last?["stage"] as? String == "complete"
            }
            #expect(stagesOf("2").last?["failedStage"] as? String == "queued")
            let unknown = try await API.curl(["-X", "DELETE", "\(base)/api/v1/structures/Home/commissioning/0000000000000000"], token: admin)
            #expect(unknown.status == 404, "\(unknown.body)")
            _ = await stream.terminate()
            withExtendedLifetime(rig) {}
        }
    }
}
