import DBus
import Foundation
import TBRTestKit
import Testing

@testable import HTTPServer
@testable import TBRDaemon
@testable import TBRHTTPAdapter
import HTTPAPIRouting

/// tbrd's HTTPS API (docs/http-api.md) against the built tbrd, otbr-sim, tbrctl and curl: off by
/// default; tokens and their scopes; the contract paths answering what `tbrctl --json` prints; live
/// events with resume; TLS with the fingerprint `tbrctl api info` shows; and a hostile client.
@Suite struct HTTPAPITests {
    /// The API's base URL once tbrd runs with `http-listen = 127.0.0.1:0` (the port it got).
    static func base(_ env: DaemonEnvironment, scheme: String = "http") async throws -> String {
        let info = try await tbrctlJSON(env, ["api", "info"])
        let listen = try #require((info as? [String: Any])?["listen"] as? String)
        return "\(scheme)://\(listen)"
    }

    static func tbrctl(_ env: DaemonEnvironment, _ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(try Executables.product("tbrctl"), ["--bus", env.address] + arguments)
    }

    static func tbrctlJSON(_ env: DaemonEnvironment, _ arguments: [String]) async throws -> Any {
        let r = try await tbrctl(env, ["--json"] + arguments)
        #expect(r.status == 0, "tbrctl \(arguments): \(r.stderr)")
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8), options: [.fragmentsAllowed])
    }

    /// A token of `scope`, remembered as a secret (it must never reach tbrd's log).
    static func token(_ env: DaemonEnvironment, _ name: String, _ scope: String) async throws -> String {
        let created = try #require(try await tbrctlJSON(env, ["api", "token", "create", name, "--scope", scope]) as? [String: Any])
        #expect(created["name"] as? String == name && created["scope"] as? String == scope)
        let token = try #require(created["token"] as? String)
        env.secrets.append(token)
        return token
    }

    /// curl's answer: the status and the body.
    struct Answer {
        var status: Int
        var body: String
        var headers: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) }
        var problemType: String? { (json as? [String: Any])?["type"] as? String }
    }

    static func curl(_ arguments: [String], token: String? = nil) async throws -> Answer {
        let directory = try TemporaryDirectory.make(prefix: "tbrd-curl")
        defer { try? FileManager.default.removeItem(at: directory) }
        let headers = directory.appendingPathComponent("headers").path
        var args = ["-s", "-S", "-k", "-D", headers, "-w", "\n%{http_code}", "--max-time", "30"]
        if let token { args += ["-H", "Authorization: Bearer \(token)"] }
        let r = try await ProcessRunner.run(try Executables.find("curl", package: "curl"), args + arguments)
        var lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        return Answer(status: status, body: lines.joined(separator: "\n"), headers: (try? String(contentsOfFile: headers, encoding: .utf8)) ?? "")
    }

    /// Whether two parsed JSON values are equal.
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (let x as [String: Any], let y as [String: Any]):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        case (let x as [Any], let y as [Any]): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (is NSNull, is NSNull): return true
        case (let x as String, let y as String): return x == y
        case (let x as Bool, let y as Bool): return x == y
        case (let x as NSNumber, let y as NSNumber): return x == y
        default: return false
        }
    }

    @Test func theAPIIsOffUnlessConfigured() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon()
            let info = try #require(try await Self.tbrctlJSON(env, ["api", "info"]) as? [String: Any])
            #expect(info.keys.sorted() == ["certificateSha256", "listen"])
            #expect(info["listen"] is NSNull && info["certificateSha256"] is NSNull)
        }
    }

    @Test func anAddressTheAPICannotServeStopsTbrdBeforeItTakesItsName() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\n"))
            let listen = try await Self.base(env).replacingOccurrences(of: "http://", with: "")
            // A second tbrd on the same port (and its own state): it says why and exits 69, never owning io.tbrd.
            let second = try await ProcessRunner.run(
                try Executables.product("tbrd"),
                ["--bus", env.address, "--state-dir", env.directory.appendingPathComponent("second").path]
                    + (try env.configuration("http-listen = \(listen)\n")))
            #expect(second.status == 69, "\(second.stderr)")
            #expect(second.stderr.contains("the HTTPS API cannot serve on \(listen) (http-listen)"), "\(second.stderr)")
            #expect(!second.stderr.contains("already owned"), "it stopped before asking for io.tbrd")
        }
    }

    @Test func tokensAndScopesGuardTheContractPaths() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator()
            try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\n"))
            let base = try await Self.base(env)
            let read = try await Self.token(env, "dashboard", "read")
            let phone = try await Self.token(env, "phone", "epskc")
            let admin = try await Self.token(env, "controller", "admin")

            // Without a token, or with a wrong one: 401, a problem, and a challenge.
            let anonymous = try await Self.curl(["\(base)/api/v1/routers"])
            #expect(anonymous.status == 401 && anonymous.problemType == "urn:tbrd:problem:unauthorized")
            #expect(anonymous.headers.lowercased().contains("www-authenticate: bearer"))
            #expect(try await Self.curl(["\(base)/api/v1/routers"], token: "tbrd_notatoken").status == 401)
            #expect(!anonymous.headers.lowercased().contains("access-control-"), "no CORS headers")

            // The listing and a router's information are the documents tbrctl --json prints.
            let routers = try await Self.curl(["\(base)/api/v1/routers"], token: read)
            #expect(routers.status == 200)
            #expect(Self.same(routers.json, try await Self.tbrctlJSON(env, ["list"])))
            let info = try await Self.curl(["\(base)/api/v1/routers/wpan0"], token: read)
            #expect(Self.same(info.json, try await Self.tbrctlJSON(env, ["info", "-d", "wpan0"])))
            #expect(try await Self.curl(["\(base)/api/v1/routers/wpan%30"], token: read).status == 200, "segments are percent-decoded")
            // A router whose agent is gone: the values it last reported, the same on both.
            let wpan1 = env.router("wpan1")
            try await eventually("wpan1 is a leader", wakingOn: wpan1.wakeups) { try await wpan1.property("Role", as: String.self) == "leader" }
            _ = try await env.simulatorControl("wpan1").call("Crash", [.uint32(600_000)])
            try await eventually("wpan1 is offline", wakingOn: wpan1.wakeups) { try await wpan1.property("Online", as: Bool.self) == false }
            let offline = try await Self.curl(["\(base)/api/v1/routers/wpan1"], token: read)
            let network = (offline.json as? [String: Any])?["network"] as? [String: Any]
            #expect(network?["role"] is NSNull && network?["networkName"] as? String == "OpenThreadDemo", "no role offline, the last network kept")
            #expect(Self.same(offline.json, try await Self.tbrctlJSON(env, ["info", "-d", "wpan1"])), "\(offline.body)")
            #expect(try await Self.curl(["\(base)/api/v1/routers/nope"], token: read).problemType == "urn:tbrd:problem:not-found")

            // ePSKc: not for a read token; the epskc scope starts and stops it, answering as epskc activate --json.
            let body = ["-H", "Content-Type: application/json", "-d", #"{"durationSeconds": 60}"#]
            let refused = try await Self.curl(body + ["\(base)/api/v1/routers/wpan0/epskc"], token: read)
            #expect(refused.status == 403 && refused.problemType == "urn:tbrd:problem:forbidden")
            let started = try await Self.curl(body + ["\(base)/api/v1/routers/wpan0/epskc"], token: phone)
            let activation = try #require(started.json as? [String: Any])
            #expect(started.status == 200 && activation["status"] as? String == "success" && activation["validDurationSeconds"] as? Int == 60)
            let key = try #require(activation["epskc"] as? String)
            env.secrets.append(key)
            #expect(key.count == 9 && key.allSatisfy(\.isNumber))
            #expect(try await Self.curl(["-X", "DELETE", "\(base)/api/v1/routers/wpan0/epskc"], token: phone).status == 204)
            #expect(try await env.journal().last?.3 == "cancelled")

            // The policy: read by all, changed by admins only, answered as structure policy --json.
            #expect(try await Self.tbrctl(env, ["structure", "create", "Home"]).status == 0)
            #expect(try await Self.tbrctl(env, ["structure", "add", "Home", "wpan0"]).status == 0)
            let none = ["-X", "PUT", "-H", "Content-Type: application/json", "-d", #"{"internetAccessOption": "none"}"#]
            #expect(try await Self.curl(none + ["\(base)/api/v1/structures/Home/policy"], token: phone).status == 403)
            let set = try await Self.curl(none + ["\(base)/api/v1/structures/Home/policy"], token: admin)
            #expect(set.status == 200 && (set.json as? [String: Any])?["internetAccessOption"] as? String == "none")
            let policy = try await Self.curl(["\(base)/api/v1/structures/Home/policy"], token: read)
            #expect(Self.same(policy.json, try await Self.tbrctlJSON(env, ["structure", "policy", "Home"])))
            let structures = try await Self.curl(["\(base)/api/v1/structures"], token: read)
            #expect(Self.same(structures.json, try await Self.tbrctlJSON(env, ["structure", "list"])))

            // Tokens are listed without their secret, stored hashed, and a revoked one is refused.
            let list = try await Self.tbrctl(env, ["--json", "api", "token", "list"])
            #expect(list.stdout.contains("\"phone\"") && !list.stdout.contains(phone))
            let database = try Data(contentsOf: URL(fileURLWithPath: env.stateDirectory + "/tbrd.db"))
                + ((try? Data(contentsOf: URL(fileURLWithPath: env.stateDirectory + "/tbrd.db-wal"))) ?? Data())
            #expect(database.range(of: Data(phone.utf8)) == nil, "the database holds no token")
            #expect(try await Self.tbrctl(env, ["api", "token", "revoke", "phone"]).status == 0)
            #expect(try await Self.curl(["\(base)/api/v1/routers"], token: phone).status == 401)
            #expect(try await Self.tbrctl(env, ["api", "token", "revoke", "phone"]).status == 1)
            let duplicate = try await Self.tbrctl(env, ["api", "token", "create", "dashboard", "--scope", "read"])
            #expect(duplicate.status == 65, "\(duplicate.stderr)")
        }
    }

    @Test func eventsArriveLiveAndResumeFromTheJournal() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\n"))
            let base = try await Self.base(env)
            let token = try await Self.token(env, "watcher", "epskc")
            let curl = try Executables.find("curl", package: "curl")
            let stream = try TestProcess(
                curl, ["-s", "-N", "-H", "Authorization: Bearer \(token)", "\(base)/api/v1/events"], directory: env.directory)
            // The stream says it is open (": open") once tbrd has subscribed it: every event from then on reaches it.
            try await eventually("the stream is open", wakingOn: stream.wakeups) { stream.stdout.contains(": open") }
            let body = ["-H", "Content-Type: application/json", "-d", #"{"durationSeconds": 30}"#, "\(base)/api/v1/routers/wpan0/epskc"]
            let started = try await Self.curl(body, token: token)
            if let key = (started.json as? [String: Any])?["epskc"] as? String { env.secrets.append(key) }
            #expect(try await Self.curl(["-X", "DELETE", "\(base)/api/v1/routers/wpan0/epskc"], token: token).status == 204)
            try await eventually("the activation and its end arrive on the stream", timeout: .seconds(20), wakingOn: stream.wakeups) {
                stream.stdout.contains("epskcModeDeactivated")
            }
            let ids = stream.stdout.split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
            try #require(ids.count == 2 && ids == ids.sorted(), "journal sequences as ids, in order: \(ids)")
            let sequence = ids[0]
            #expect(stream.stdout.contains(#""reason":"cancelled""#))

            // Resuming after the activation replays exactly what came after it.
            let resumed = try TestProcess(
                curl, ["-s", "-N", "-H", "Authorization: Bearer \(token)", "-H", "Last-Event-ID: \(sequence)", "\(base)/api/v1/events"],
                directory: env.directory)
            try await eventually("the replay arrives", wakingOn: resumed.wakeups) { resumed.stdout.contains("epskcModeDeactivated") }
            let replayed = resumed.stdout.split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
            #expect(replayed.first == sequence + 1 && !resumed.stdout.contains("epskcModeActivated"))
            #expect(try await Self.curl(["-H", "Last-Event-ID: soon", "\(base)/api/v1/events"], token: token).status == 400)
            _ = await stream.terminate()
            _ = await resumed.terminate()
        }
    }

    @Test func offLoopbackItIsTLSWithTheFingerprintTbrctlShows() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\nhttp-tls = on\n"))
            let info = try #require(try await Self.tbrctlJSON(env, ["api", "info"]) as? [String: Any])
            let fingerprint = try #require(info["certificateSha256"] as? String)
            #expect(fingerprint.count == 64 && fingerprint.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            let openssl = try await ProcessRunner.run(
                try Executables.find("openssl", package: "openssl"),
                ["x509", "-in", env.stateDirectory + "/api-cert.pem", "-noout", "-fingerprint", "-sha256"])
            #expect(openssl.stdout.lowercased().filter(\.isHexDigit).hasSuffix(fingerprint), "\(openssl.stdout)")
            for file in ["api-cert.pem", "api-key.pem"] {
                let mode = try #require(try FileManager.default.attributesOfItem(atPath: env.stateDirectory + "/" + file)[.posixPermissions] as? Int)
                #expect(mode == 0o600, "\(file) is \(String(mode, radix: 8))")
            }
            let base = try await Self.base(env, scheme: "https")
            let token = try await Self.token(env, "reader", "read")
            #expect(try await Self.curl(["\(base)/api/v1/routers"], token: token).status == 200)
            #expect(try await Self.curl(["--tlsv1.1", "--tls-max", "1.1", "\(base)/api/v1/routers"], token: token).status == 0, "TLS 1.1 is refused")
            #expect(try await Self.curl([base.replacingOccurrences(of: "https", with: "http") + "/api/v1/routers"]).status == 0, "no plain HTTP")
            // Kept across a restart: a pinned fingerprint stays valid.
            await env.stopDaemon()
            try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\nhttp-tls = on\n"))
            #expect((try await Self.tbrctlJSON(env, ["api", "info"]) as? [String: Any])?["certificateSha256"] as? String == fingerprint)
        }
    }

    @Test func aHostileClientGetsClearRefusals() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\n"))
            let base = try await Self.base(env)
            let admin = try await Self.token(env, "admin", "admin")
            let big = String(repeating: "a", count: 9 * 1024)
            #expect(try await Self.curl(["-H", "X-Big: \(big)", "\(base)/api/v1/routers"], token: admin).status == 431)
            let directory = try TemporaryDirectory.make(prefix: "tbrd-body")
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("body")
            try Data(("{\"durationSeconds\": 1" + String(repeating: " ", count: 70 * 1024) + "}").utf8).write(to: file)
            let json = ["-H", "Content-Type: application/json"]
            #expect(try await Self.curl(json + ["--data-binary", "@\(file.path)", "\(base)/api/v1/routers/wpan0/epskc"], token: admin).status == 413)
            let garbage = try await Self.curl(json + ["-d", "{not json", "\(base)/api/v1/routers/wpan0/epskc"], token: admin)
            #expect(garbage.status == 400 && (garbage.json as? [String: Any])?["exitStatus"] as? Int == 65)
            // A key twice: which value a parser keeps differs, so the body is refused, naming the key.
            let twice = try await Self.curl(
                json + ["-X", "PUT", "-d", #"{"internetAccessOption":"none","internetAccessOption":"all"}"#, "\(base)/api/v1/structures/Home/policy"],
                token: admin)
            #expect(twice.status == 400 && twice.problemType == "urn:tbrd:problem:invalid-argument", "\(twice.body)")
            #expect((twice.json as? [String: Any])?["exitStatus"] as? Int == 65 && twice.body.contains("internetAccessOption"), "\(twice.body)")
            let nested = try await Self.curl(
                json + ["-d", #"{"durationSeconds":30,"durationSeconds":30}"#, "\(base)/api/v1/routers/wpan0/epskc"], token: admin)
            #expect(nested.status == 400 && nested.body.contains("durationSeconds"), "even when both values agree: \(nested.body)")
            let wrongType = try await Self.curl(["-d", "{}", "\(base)/api/v1/routers/wpan0/epskc"], token: admin)
            #expect(wrongType.status == 400 && wrongType.problemType == "urn:tbrd:problem:invalid-argument")
            let tooLong = try await Self.curl(json + ["-d", #"{"durationSeconds": 601}"#, "\(base)/api/v1/routers/wpan0/epskc"], token: admin)
            #expect(tooLong.status == 400)
            let crossOrigin = try await Self.curl(
                json + ["-H", "Origin: https://elsewhere.example", "-d", #"{"durationSeconds": 30}"#, "\(base)/api/v1/routers/wpan0/epskc"], token: admin)
            #expect(crossOrigin.status == 403)
            let method = try await Self.curl(["-X", "PATCH", "\(base)/api/v1/routers"], token: admin)
            #expect(method.status == 405 && method.headers.contains("Allow: GET"))
            #expect(try await Self.curl(["\(base)/api/v1/routers/%zz"], token: admin).status == 400)
            #expect(try await Self.curl(["\(base)/etc/passwd"], token: admin).status == 404)
            #expect(try await Self.curl(["\(base)/api/v1/routers?token=\(admin)"]).status == 401, "a token in a URL is not one")
            // After all that, tbrd still answers.
            #expect(try await Self.curl(["\(base)/api/v1/routers"], token: admin).status == 200)
        }
    }

    @Test func theOpenAPIDocumentAndTheRoutesAgree() async throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.text.utf8)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(Set(paths.keys) == Set(OpenAPIDocument.operations.map(\.path)))
        let documented = Dictionary(grouping: OpenAPIDocument.operations, by: \.path)
        for (path, operations) in documented {
            #expect(Set(paths[path]?.keys.map { $0 } ?? []) == Set(operations.map(\.method)), "\(path)")
            let concrete = path.replacingOccurrences(of: "{id}", with: "wpan0").replacingOccurrences(of: "{name}", with: "Home")
                .replacingOccurrences(of: "{router}", with: "wpan0").replacingOccurrences(of: "{room}", with: "Kitchen")
                .replacingOccurrences(of: "{session}", with: "0123456789abcdef")
            for method in ["get", "put", "post", "delete", "patch"] {
                let matched = try? APIRoute.match(method: method.uppercased(), path: concrete).get()
                if let op = operations.first(where: { $0.method == method }) {
                    #expect(matched == op.route, "\(method) \(path) is documented as \(op.route) but routed to \(String(describing: matched))")
                    let summary = (paths[path]?[method] as? [String: Any])?["summary"] as? String ?? ""
                    #expect(summary.hasSuffix("scope " + op.route.scope.rawValue), "\(method) \(path): \(summary)")
                } else {
                    #expect(matched == nil, "\(method) \(path) is routed but not documented")
                }
            }
        }
    }

    /// The D-Bus member each documented operation calls (what its tbrctl command calls through tbrd).
    static let dbusMember: [String: String] = [
        "get /api/v1/routers": "ListBorderRouters", "get /api/v1/routers/{id}": "GetAll", "get /api/v1/routers/{id}/mesh": "GetMeshTopology",
        "get /api/v1/routers/{id}/mesh.svg": "GetMeshTopology", "get /api/v1/routers/{id}/doctor": "Diagnose",
        "get /api/v1/routers/{id}/dataset": "GetActiveDataset", "post /api/v1/routers/{id}/join": "JoinNetwork",
        "post /api/v1/routers/{id}/leave": "LeaveNetwork", "post /api/v1/routers/{id}/epskc": "ActivateEpskcMode",
        "delete /api/v1/routers/{id}/epskc": "DeactivateEpskcMode", "get /api/v1/structures": "ListStructures",
        "post /api/v1/structures": "CreateStructure", "get /api/v1/structures/{name}": "GetAll", "delete /api/v1/structures/{name}": "DeleteStructure",
        "put /api/v1/structures/{name}/routers/{router}": "AddBorderRouter", "delete /api/v1/structures/{name}/routers/{router}": "RemoveBorderRouter",
        "get /api/v1/structures/{name}/policy": "Get", "put /api/v1/structures/{name}/policy": "Set", "get /api/v1/structures/{name}/rooms": "Get",
        "put /api/v1/structures/{name}/rooms/{room}": "AddRoom", "delete /api/v1/structures/{name}/rooms/{room}": "RemoveRoom",
        "get /api/v1/structures/{name}/networks": "Get", "get /api/v1/structures/{name}/nodes": "Get",
        "post /api/v1/structures/{name}/commissioning": "PrepareMatterCommissioning",
        "delete /api/v1/structures/{name}/commissioning/{session}": "CancelMatterCommissioning", "get /api/v1/events": "EpskcEvents",
        "get /api/v1/openapi.json": "ApiInfo", "get /api/v1/health": "Problems", "get /api/v1/health/history": "ProblemHistory",
        // The metrics are the health monitor's readings, which group tbrd reads over D-Bus as HealthSamples.
        "get /api/v1/metrics": "HealthSamples",
    ]

    /// The two authorization decisions agree: an operation a `read` token may call is exactly one whose
    /// D-Bus member group `tbrd` may call in io.tbrd.conf (`epskc` and `admin` are tbrd-admin's there).
    @Test func theScopesAgreeWithTheDBusPolicy() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let conf = try String(contentsOf: root.appendingPathComponent("config/dbus/io.tbrd.conf"), encoding: .utf8)
        let group = try #require(conf.components(separatedBy: "<policy group=\"tbrd\">").dropFirst().first?.components(separatedBy: "</policy>").first)
        let readable = Set(group.components(separatedBy: "send_member=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) })
        #expect(readable.contains("ListBorderRouters") && !readable.contains("Set"))
        for op in OpenAPIDocument.operations {
            let key = op.method + " " + op.path
            let member = try #require(Self.dbusMember[key], "\(key) has no D-Bus member in this table")
            #expect((op.route.scope == .read) == readable.contains(member), "\(key): scope \(op.route.scope.rawValue), D-Bus \(member)")
        }
    }

    @Test func aClientTooSlowForItsEventsIsClosedWithALastEvent() {
        let hub = APIEventHub(capacity: 8)
        let (_, stream) = hub.subscribe(holding: false)
        #expect(hub.count == 1)
        for n in 0..<20 { hub.publish(APIEventHub.Event(name: "router", data: Array("{\"n\":\(n)}".utf8), sequence: nil)) }
        #expect(hub.count == 0, "the slow client is dropped, nothing more is kept for it")
        var frames = ""
        while case .bytes(let bytes) = stream.take(maximum: 1 << 16) { frames += String(decoding: bytes, as: UTF8.self) }
        #expect(frames.hasSuffix("event: overflow\ndata: {\"detail\":\"this client fell too far behind; reconnect with Last-Event-ID to resume\"}\n\n"))
        #expect(frames.components(separatedBy: "event: router").count - 1 <= 10)
    }
}
