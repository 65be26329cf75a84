import Foundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// tbrd over MQTT (issue 50) with a real Mosquitto (password and ACL files) and real clients: the
/// retained state and Home Assistant's discovery configs, a structure's internet access set by one
/// message, an ePSKc whose key reaches only its response, a broker that goes away and comes back,
/// refused credentials, hostile requests, and a fleet of homes bridged into one broker.
@Suite(.serialized) struct MQTTTests {
    /// tbrd.conf for `broker`, with tbrd's password in a 0600 file (`password` when given, the right one else).
    static func configuration(_ env: DaemonEnvironment, _ broker: MosquittoBroker, _ extra: String = "", password: String? = nil) throws -> [String] {
        let file = env.directory.appendingPathComponent("mqtt-password")
        try ((password ?? MosquittoBroker.users[0].1) + "\n").write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        return try env.configuration(
            """
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-username = tbrd
            mqtt-password-file = \(file.path)
            mqtt-client-id = tbrd-test

            """ + extra)
    }

    static func tbrctl(_ env: DaemonEnvironment, _ arguments: [String]) async throws {
        let r = try await HTTPAPITests.tbrctl(env, arguments)
        #expect(r.status == 0, "tbrctl \(arguments): \(r.stderr)")
    }

    /// A broker, otbr-sim with `routers`, and tbrd connected to the broker with `extra` in tbrd.conf.
    static func start(_ env: DaemonEnvironment, routers: [String], _ extra: String = "", brokerExtra: String = "") async throws -> MosquittoBroker {
        let broker = try await MosquittoBroker(in: env.directory, name: "home", extra: brokerExtra)
        try await env.startSimulator(routers)
        try await env.startDaemon(try configuration(env, broker, extra))
        return broker
    }

    /// A structure `Home` holding wpan0 and wpan1.
    static func makeHome(_ env: DaemonEnvironment) async throws {
        try await tbrctl(env, ["structure", "create", "Home"])
        try await tbrctl(env, ["structure", "add", "Home", "wpan0"])
        try await tbrctl(env, ["structure", "add", "Home", "wpan1"])
    }

    @Test func routersAndStructuresAppearInHomeAssistantByThemselves() async throws {
        try await withDaemon { env throws in
            let broker = try await Self.start(env, routers: ["wpan0", "wpan1"])
            defer { Task { await broker.stop() } }
            try await Self.makeHome(env)
            // A controller that comes later gets everything retained.
            let sub = try await broker.subscribe(["tbrd/#", "homeassistant/#"])
            defer { Task { await sub.stop() } }
            try await sub.waitFor("Home holds both routers") {
                $0.topic == "tbrd/structures/Home" && ($0.json?["routers"] as? [String]) == ["wpan0", "wpan1"]
            }
            try await sub.waitFor("both routers' readings") { _ in
                ["wpan0", "wpan1"].allSatisfy { id in sub.last("tbrd/routers/\(id)/status")?.json?["role"] as? String == "leader" }
            }
            #expect(sub.last("tbrd/bridge/state")?.payload == "online")
            #expect(sub.last("tbrd/bridge/state")?.retained == true)
            let info = try #require(
                try await sub.waitFor("tbrd's info with Home") { $0.topic == "tbrd/bridge/info" && ($0.json?["structures"] as? [String]) == ["Home"] }.json)
            #expect(info["routers"] as? [String] == ["wpan0", "wpan1"])
            #expect((sub.last("tbrd/routers/wpan0")?.json?["network"] as? [String: Any])?["networkName"] as? String == "OpenThreadDemo")

            // Every config, as Home Assistant's MQTT discovery schema wants it: tbrd (2), each router (online,
            // role, channel, network name, routers, children), Home (2).
            let isConfig = { (m: MosquittoBroker.Subscription.Message) in m.topic.hasPrefix("homeassistant/") && m.topic.hasSuffix("/config") }
            try await sub.waitFor("every discovery config") { _ in sub.messages.filter(isConfig).count >= 2 + 6 * 2 + 2 }
            let configs = sub.messages.filter(isConfig)
            #expect(configs.allSatisfy { $0.retained })
            var uniqueIDs: Set<String> = []
            for config in configs {
                let parts = config.topic.split(separator: "/")
                #expect(parts.count == 5, "\(config.topic)")
                let component = String(parts[1])
                let c = try #require(config.json, "\(config.topic): \(config.payload)")
                let id = try #require(c["unique_id"] as? String)
                #expect(uniqueIDs.insert(id).inserted, "unique_id \(id) twice")
                #expect(c["name"] is String)
                let entity = try #require(c["default_entity_id"] as? String)
                #expect(entity.hasPrefix(component + ".") && entity.dropFirst(component.count + 1).allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "\(entity)")
                #expect(c["object_id"] == nil, "Home Assistant reads object_id no more (2026.4)")
                #expect(c["availability_topic"] as? String == "tbrd/bridge/state" && c["payload_available"] as? String == "online")
                let device = try #require(c["device"] as? [String: Any])
                #expect(!((device["identifiers"] as? [String]) ?? []).isEmpty)
                let state = try #require(c["state_topic"] as? String)
                #expect(sub.last(state) != nil, "\(config.topic) reads \(state), which holds nothing")
                #expect((c["value_template"] as? String)?.hasPrefix("{{") == true)
                switch component {
                case "sensor", "binary_sensor": break
                case "select":
                    #expect(c["command_topic"] as? String == "tbrd/structures/Home/internet-access/set")
                    #expect(c["options"] as? [String] == ["none", "nat64-only", "dhcpv6-pd-only", "all"])
                default: Issue.record("a config of component \(component)")
                }
                if (device["identifiers"] as? [String])?.first != "tbrd_tbrd-test" {
                    #expect(device["via_device"] as? String == "tbrd_tbrd-test", "\(config.topic)")
                }
            }
            #expect(configs.count == 2 + 6 * 2 + 2, "\(configs.map(\.topic))")
            let selectState = try #require(sub.last("tbrd/structures/Home")?.json?["settings"] as? [String: Any])
            #expect(selectState["internetAccessOption"] as? String == "unspecified")

            // Home Assistant restarting: every config again.
            let before = sub.messages.count
            try await broker.publish("homeassistant/status", "online")
            try await sub.waitFor("the configs published again") { _ in
                sub.messages.dropFirst(before).filter { $0.topic.hasSuffix("/config") }.count >= configs.count
            }

            // A structure deleted: its configs cleared (an empty retained message each).
            try await Self.tbrctl(env, ["structure", "delete", "--yes", "Home"])
            try await sub.waitFor("Home's configs cleared") { _ in
                sub.messages.filter { $0.topic.contains("/structure_") && $0.topic.hasSuffix("/config") && $0.payload.isEmpty }.count == 2
                    && sub.last("tbrd/structures/Home")?.payload == ""
            }
        }
    }

    /// A border router on another host (REST) added: it appears with its discovery configs; removed, its
    /// topics and configs are cleared.
    @Test func aRouterAddedAppearsAndARouterRemovedIsCleared() async throws {
        try await withDaemon { env throws in
            let remote = try await RemoteAgent(in: env, interface: "wpan3")
            defer { Task { await remote.stop() } }
            let url = remote.url
            let broker = try await Self.start(env, routers: ["wpan0"], "rest-poll-interval = 0.2\n")
            defer { Task { await broker.stop() } }
            let sub = try await broker.subscribe(["tbrd/#", "homeassistant/#"])
            defer { Task { await sub.stop() } }
            try await sub.waitFor("wpan0 published") { $0.topic == "tbrd/routers/wpan0" }

            try await Self.tbrctl(env, ["router", "add", url, "--id", "garage"])
            try await sub.waitFor("the new router's document") { $0.topic == "tbrd/routers/garage" && $0.json?["transport"] as? String == "rest" }
            try await sub.waitFor("its six configs") { _ in
                sub.messages.filter { $0.topic.contains("/router_garage_") && $0.topic.hasSuffix("/config") && !$0.payload.isEmpty }.count == 6
            }
            try await sub.waitFor("tbrd's info lists it") { $0.topic == "tbrd/bridge/info" && ($0.json?["routers"] as? [String]) == ["garage", "wpan0"] }

            try await Self.tbrctl(env, ["router", "remove", "garage"])
            try await sub.waitFor("its configs and topics cleared") { _ in
                sub.messages.filter { $0.topic.contains("/router_garage_") && $0.topic.hasSuffix("/config") && $0.payload.isEmpty }.count == 6
                    && sub.last("tbrd/routers/garage")?.payload == "" && sub.last("tbrd/routers/garage/status")?.payload == ""
            }
            try await sub.waitFor("tbrd's info without it") { _ in (sub.last("tbrd/bridge/info")?.json?["routers"] as? [String]) == ["wpan0"] }
        }
    }

    @Test func oneMessageSetsAStructuresInternetAccessAndTheStateFollows() async throws {
        try await withDaemon { env throws in
            let broker = try await Self.start(env, routers: ["wpan0", "wpan1"])
            defer { Task { await broker.stop() } }
            try await Self.makeHome(env)
            let sub = try await broker.subscribe(["tbrd/#"])
            defer { Task { await sub.stop() } }
            // An MQTT 5 controller's own answers, with the correlation data before the payload.
            let replies = try await broker.subscribe(["replies/#"], extra: ["-V", "mqttv5"], payloadFormat: "%D %p")
            defer { Task { await replies.stop() } }

            // Home Assistant's select: the bare word on the structure's command topic.
            try await broker.publish("tbrd/structures/Home/internet-access/set", "none")
            try await sub.waitFor("Home's state says none, applied by both routers") { m in
                guard m.topic == "tbrd/structures/Home", let doc = m.json, let policy = doc["policy"] as? [[String: Any]] else { return false }
                return (doc["settings"] as? [String: Any])?["internetAccessOption"] as? String == "none" && policy.count == 2
                    && policy.allSatisfy { $0["state"] as? String == "applied" }
            }
            try await sub.waitFor("a policy event") { $0.topic == "tbrd/events/policy" && $0.json?["internetAccessOption"] as? String == "none" }
            // The D-Bus API agrees.
            let property = try await HTTPAPITests.tbrctlJSON(env, ["structure", "policy", "Home"]) as? [String: Any]
            #expect(property?["internetAccessOption"] as? String == "none")

            // A request with a transaction, answered on the response topic and (MQTT 5) on its own.
            try await broker.publish(
                "tbrd/bridge/request/structure/policy", #"{"structure": "Home", "internetAccessOption": "nat64-only", "transaction": "t-1"}"#,
                extra: ["-V", "mqttv5", "-D", "publish", "response-topic", "replies/controller", "-D", "publish", "correlation-data", "c-42"])
            let response = try await sub.waitFor("the response") { $0.topic == "tbrd/bridge/response/structure/policy" }
            let doc = try #require(response.json)
            #expect(doc["status"] as? String == "ok" && doc["transaction"] as? String == "t-1")
            #expect((doc["data"] as? [String: Any])?["internetAccessOption"] as? String == "nat64Only")
            #expect(!response.retained)
            try await replies.waitFor("the same answer on the MQTT 5 response topic, with its correlation data") {
                $0.topic == "replies/controller" && $0.payload == "c-42 " + response.payload
            }

            // A word that is no option: an error, and the select's state is published again unchanged.
            try await broker.publish("tbrd/bridge/request/structure/policy", #"{"structure": "Home", "internetAccessOption": "some"}"#)
            let refused = try await sub.waitFor("the refusal") { $0.topic == "tbrd/bridge/response/structure/policy" && $0.json?["status"] as? String == "error" }
            let error = try #require(refused.json?["error"] as? [String: Any])
            #expect(error["type"] as? String == "urn:tbrd:problem:invalid-argument" && error["exitStatus"] as? Int == 65)
        }
    }

    @Test func anEpskcKeyReachesOnlyTheResponseThatAskedForIt() async throws {
        try await withDaemon { env throws in
            let broker = try await MosquittoBroker(in: env.directory, name: "home")
            defer { Task { await broker.stop() } }
            // Everything the broker carries, from before tbrd connects to the end.
            let all = try await broker.subscribe(["#"])
            defer { Task { await all.stop() } }
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon(try Self.configuration(env, broker, "mqtt-epskc = yes\n"))
            try await all.waitFor("tbrd online") { $0.topic == "tbrd/bridge/state" && $0.payload == "online" }

            try await broker.publish("tbrd/bridge/request/epskc/activate", #"{"router": "wpan0", "durationSeconds": 120, "transaction": 1}"#)
            let response = try await all.waitFor("the activation") { $0.topic == "tbrd/bridge/response/epskc/activate" }
            let data = try #require(response.json?["data"] as? [String: Any])
            let key = try #require(data["epskc"] as? String)
            env.secrets.append(key)
            #expect(key.count == 9 && data["status"] as? String == "success" && response.json?["transaction"] as? Int == 1)
            try await all.waitFor("the activation event") { $0.topic == "tbrd/events/epskc" && $0.json?["event"] as? String == "epskcModeActivated" }

            try await broker.publish("tbrd/bridge/request/epskc/deactivate", #"{"router": "wpan0"}"#)
            let end = try await all.waitFor("the end event") { $0.topic == "tbrd/events/epskc" && $0.json?["event"] as? String == "epskcModeDeactivated" }
            #expect(end.json?["reason"] as? String != nil)

            // The key on the one response, and nowhere else; no network key anywhere.
            let carrying = all.messages.filter { $0.payload.contains(key) }
            #expect(carrying.map(\.topic) == ["tbrd/bridge/response/epskc/activate"], "\(carrying.map(\.topic))")
            #expect(!all.messages.contains { $0.payload.contains(demoNetworkKey) }, "\(all.messages.filter { $0.payload.contains(demoNetworkKey) }.map { $0.topic + " " + $0.payload })")

            // A clean stop says goodbye: offline, retained.
            #expect(await env.stopDaemon() == 0)
            try await all.waitFor("tbrd offline") { $0.topic == "tbrd/bridge/state" && $0.payload == "offline" }
        }
    }

    @Test func aBrokerThatGoesAwayLosesNothingOfTbrd() async throws {
        try await withDaemon { env throws in
            // A broker that keeps sessions across its restart: the controller's queued messages wait for it.
            let broker = try await Self.start(
                env, routers: ["wpan0"], brokerExtra: "persistence true\npersistence_location \(env.directory.path)/home/\n")
            defer { Task { await broker.stop() } }
            let sub = try await broker.subscribe(["tbrd/#"], extra: ["-c", "-i", "controller-session", "-q", "1"])
            defer { Task { await sub.stop() } }
            try await sub.waitFor("tbrd online") { $0.topic == "tbrd/bridge/state" && $0.payload == "online" }

            await broker.stop()
            // While the broker is away: an ePSKc starts and ends, and a structure is made.
            let activation = try await env.activate("wpan0", seconds: 60)
            #expect(activation.status == "success")
            _ = try await env.router("wpan0").call("DeactivateEpskcMode", [.bool(false)])
            try await Self.tbrctl(env, ["structure", "create", "Office"])
            #expect(try await env.manager.call("ListBorderRouters", []).count == 1, "tbrd answers D-Bus meanwhile")

            try await broker.restart()
            try await sub.waitFor("tbrd back online", timeout: .seconds(90)) { m in
                m.topic == "tbrd/bridge/state" && m.payload == "online" && sub.messages.filter { $0.topic == "tbrd/bridge/state" && $0.payload == "online" }.count >= 2
            }
            try await sub.waitFor("the structure made meanwhile, retained") { $0.topic == "tbrd/structures/Office" }
            try await sub.waitFor("the ePSKc end that happened meanwhile") {
                $0.topic == "tbrd/events/epskc" && $0.json?["event"] as? String == "epskcModeDeactivated"
            }
            #expect(sub.messages.contains { $0.topic == "tbrd/events/epskc" && $0.json?["event"] as? String == "epskcModeActivated" })
            // tbrd's info after the reconnection (it lists the structure made meanwhile): nothing dropped.
            let info = try await sub.waitFor("tbrd's info, anew") { $0.topic == "tbrd/bridge/info" && ($0.json?["structures"] as? [String]) == ["Office"] }
            #expect(info.json?["droppedEvents"] as? Int == 0)
        }
    }

    @Test func refusedCredentialsAreLoggedOncePerBackoffAndTbrdServesOn() async throws {
        try await withDaemon { env throws in
            let broker = try await MosquittoBroker(in: env.directory, name: "home")
            defer { Task { await broker.stop() } }
            try await env.startSimulator(["wpan0"])

            // A password file others may read: tbrd refuses to start, and says which and why.
            let loose = env.directory.appendingPathComponent("loose-password")
            try "x\n".write(to: loose, atomically: true, encoding: .utf8)
            chmod(loose.path, 0o644)
            let refused = try await ProcessRunner.run(
                try Executables.product("tbrd"),
                ["--bus", env.address, "--state-dir", env.stateDirectory]
                    + (try env.configuration("mqtt-url = mqtt://127.0.0.1:\(broker.port)\nmqtt-username = tbrd\nmqtt-password-file = \(loose.path)\n")))
            #expect(refused.status == 78, "\(refused.stderr)")
            #expect(refused.stderr.contains("mqtt-password-file \(loose.path) is mode 644"), "\(refused.stderr)")

            try await env.startDaemon(try Self.configuration(env, broker, password: "not-the-password"))
            let daemon = try #require(env.daemon)
            // Three attempts: 1 s, then 2 s, then 4 s apart (doubling), each refusal logged once.
            try await eventually("three refusals", timeout: .seconds(30), wakingOn: daemon.wakeups) {
                daemon.stderr.components(separatedBy: "MQTT: no connection").count - 1 >= 3
            }
            let lines = daemon.stderr.split(separator: "\n").filter { $0.contains("MQTT: no connection") }
            #expect(lines.prefix(3).map { $0.contains("retry_seconds=1") ? 1 : $0.contains("retry_seconds=2") ? 2 : $0.contains("retry_seconds=4") ? 4 : 0 } == [1, 2, 4], "\(lines)")
            #expect(lines.allSatisfy { $0.lowercased().contains("not authori") }, "\(lines)")
            #expect(try await env.manager.call("ListBorderRouters", []).count == 1, "tbrd serves D-Bus")
        }
    }

    @Test func hostileRequestsGetAnErrorAndHarmNothing() async throws {
        try await withDaemon { env throws in
            let broker = try await Self.start(env, routers: ["wpan0"])
            defer { Task { await broker.stop() } }
            let sub = try await broker.subscribe(["tbrd/bridge/response/#"])
            defer { Task { await sub.stop() } }
            let big = env.directory.appendingPathComponent("big")
            try Data(repeating: 0x7B, count: 256 * 1024).write(to: big)
            let cases: [(topic: String, body: String, extra: [String], type: String)] = [
                ("structure", "{not json", [], "invalid-argument"),
                ("structure", #"{"structure": 7}"#, [], "invalid-argument"),
                ("structure", #"{"structure": "A", "structure": "B"}"#, [], "invalid-argument"),
                ("epskc/activate", #"{"router": "wpan0", "durationSeconds": "long"}"#, [], "invalid-argument"),
                ("no/such/thing", "{}", [], "not-found"),
                ("router", #"{"router": "wpan9"}"#, [], "not-found"),
                ("epskc/activate", #"{"router": "wpan0", "durationSeconds": 30}"#, [], "permission-denied"),
                ("structure/create", #"{"structure": "X"}"#, [], "permission-denied"),
                ("routers", "", ["-f", big.path], "invalid-argument"),
            ]
            for (i, c) in cases.enumerated() {
                let extra = c.extra.isEmpty ? [] : c.extra
                if extra.isEmpty {
                    try await broker.publish("tbrd/bridge/request/" + c.topic, c.body)
                } else {
                    let tool = try Executables.find("mosquitto_pub", package: "mosquitto-clients")
                    let r = try await ProcessRunner.run(
                        tool, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-u", "controller", "-P", "controller-password", "-t", "tbrd/bridge/request/" + c.topic] + extra)
                    #expect(r.status == 0, "\(r.stderr)")
                }
                let responses = { sub.messages.filter { $0.topic.hasPrefix("tbrd/bridge/response/") } }
                try await sub.waitFor("answer \(i)") { _ in responses().count > i }
                let answer = responses()[i]
                #expect(answer.topic == "tbrd/bridge/response/" + c.topic, "case \(i)")
                let error = answer.json?["error"] as? [String: Any]
                #expect(answer.json?["status"] as? String == "error" && error?["type"] as? String == "urn:tbrd:problem:" + c.type, "case \(i): \(answer.payload)")
            }
            // Unharmed: it still answers.
            try await broker.publish("tbrd/bridge/request/routers", "")
            try await sub.waitFor("the routers") { $0.topic == "tbrd/bridge/response/routers" && $0.json?["status"] as? String == "ok" }
            #expect(env.daemon?.isRunning == true)

            // Killed, it says nothing; the broker says it for tbrd (the last will).
            let state = try await broker.subscribe(["tbrd/bridge/state"])
            defer { Task { await state.stop() } }
            try await state.waitFor("online, retained") { $0.payload == "online" }
            await env.stopDaemon(signal: SIGKILL)
            try await state.waitFor("the will: offline") { $0.payload == "offline" }
        }
    }

    @Test func mqttsChecksTheBrokerAgainstTheCAFile() async throws {
        try await withDaemon { env throws in
            // A CA of the test's own and a certificate for 127.0.0.1 it signed (Debian's openssl).
            let openssl = try Executables.find("openssl", package: "openssl")
            let pki = env.directory.appendingPathComponent("pki")
            try FileManager.default.createDirectory(at: pki, withIntermediateDirectories: true)
            func run(_ arguments: [String]) async throws {
                let r = try await ProcessRunner.run(openssl, arguments)
                guard r.status == 0 else { throw TestKitError("openssl \(arguments.first ?? ""): \(r.stderr)") }
            }
            let file = { (name: String) in pki.appendingPathComponent(name).path }
            let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            try await run(["req", "-x509"] + curve + ["-keyout", file("ca.key"), "-out", file("ca.pem"), "-subj", "/CN=tbrd test CA", "-days", "2"])
            try await run(["req"] + curve + ["-keyout", file("broker.key"), "-out", file("broker.csr"), "-subj", "/CN=127.0.0.1"])
            try "subjectAltName=IP:127.0.0.1\n".write(toFile: file("san"), atomically: true, encoding: .utf8)
            try await run([
                "x509", "-req", "-in", file("broker.csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key"), "-CAcreateserial", "-out",
                file("broker.pem"), "-days", "2", "-extfile", file("san"),
            ])
            let broker = try await MosquittoBroker(
                in: env.directory, name: "home", extra: "cafile \(file("ca.pem"))\ncertfile \(file("broker.pem"))\nkeyfile \(file("broker.key"))\n",
                clientTLS: ["--cafile", file("ca.pem")])
            defer { Task { await broker.stop() } }
            try await env.startSimulator(["wpan0"])
            let password = env.directory.appendingPathComponent("mqtt-password")
            try (MosquittoBroker.users[0].1 + "\n").write(to: password, atomically: true, encoding: .utf8)
            chmod(password.path, 0o600)
            try await env.startDaemon(
                try env.configuration(
                    """
                    mqtt-url = mqtts://127.0.0.1:\(broker.port)
                    mqtt-ca-file = \(file("ca.pem"))
                    mqtt-username = tbrd
                    mqtt-password-file = \(password.path)

                    """))
            let sub = try await broker.subscribe(["tbrd/#"])
            defer { Task { await sub.stop() } }
            try await sub.waitFor("tbrd online over TLS") { $0.topic == "tbrd/bridge/state" && $0.payload == "online" }
            try await sub.waitFor("wpan0's document") { $0.topic == "tbrd/routers/wpan0" }
        }
    }

    /// amqtt (PyPI, `make amqtt`), a broker of MQTT 3.1.1 only that never answers a version 5 CONNECT:
    /// tbrd gives up on the answer after 10 s and speaks 3.1.1 to it from then on.
    @Test func aBrokerOfMQTT311OnlyIsSpokenToIn311() async throws {
        try await withDaemon { env throws in
            var venv = Executables.productsDirectory
            while venv.path != "/", venv.lastPathComponent != ".build" { venv.deleteLastPathComponent() }
            let amqtt = venv.appendingPathComponent("amqtt-venv/bin/amqtt").path
            guard FileManager.default.isExecutableFile(atPath: amqtt) else { throw TestKitError("amqtt is not installed: run `make amqtt` (make test does)") }
            let port = try MosquittoBroker.freePort()
            let config = env.directory.appendingPathComponent("amqtt.yaml")
            try """
                listeners:
                  default:
                    type: tcp
                    bind: 127.0.0.1:\(port)
                plugins:
                  amqtt.plugins.authentication.AnonymousAuthPlugin:
                    allow_anonymous: true
                """.write(to: config, atomically: true, encoding: .utf8)
            let broker = try TestProcess(amqtt, ["-c", config.path], directory: env.directory)
            defer { Task { _ = await broker.terminate() } }
            try await eventually("amqtt listens", timeout: .seconds(30), wakingOn: broker.wakeups) {
                broker.stderr.contains("bind to 127.0.0.1:\(port)") || broker.stdout.contains("bind to 127.0.0.1:\(port)") || !broker.isRunning
            }
            guard broker.isRunning else { throw TestKitError("amqtt: \(broker.stderr)") }
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon(try env.configuration("mqtt-url = mqtt://127.0.0.1:\(port)\n"))
            let daemon = try #require(env.daemon)
            try await eventually("tbrd connected in MQTT 3.1.1", timeout: .seconds(60), wakingOn: daemon.wakeups) {
                daemon.stderr.contains("connected to the broker protocol=3.1.1")
            }
            #expect(daemon.stderr.contains("does not speak MQTT 5"))
            let sub = MosquittoBroker.Subscription(
                process: try TestProcess(
                    try Executables.find("mosquitto_sub", package: "mosquitto-clients"),
                    ["-h", "127.0.0.1", "-p", "\(port)", "-V", "mqttv311", "-F", "%r\\t%t\\t%p", "-t", "tbrd/#"], directory: env.directory))
            defer { Task { await sub.stop() } }
            try await sub.waitFor("tbrd's state, retained") { $0.topic == "tbrd/bridge/state" && $0.payload == "online" }
            try await sub.waitFor("wpan0, retained") { $0.topic == "tbrd/routers/wpan0/status" }
        }
    }

    @Test func aFleetBrokerSeesEveryHomesRouters() async throws {
        try await withDaemon { home1 throws in
            try await withDaemon { home2 throws in
                let fleet = try await MosquittoBroker(in: home1.directory, name: "fleet")
                defer { Task { await fleet.stop() } }
                let watcher = try await fleet.subscribe(["homes/+/tbrd/routers/+"])
                defer { Task { await watcher.stop() } }
                var brokers: [MosquittoBroker] = []
                defer { for b in brokers { Task { await b.stop() } } }
                for (env, id) in [(home1, "home1"), (home2, "home2")] {
                    // docs/mqtt.md's bridge block: the home's tbrd/# under homes/<id>/tbrd/# on the fleet broker.
                    let broker = try await MosquittoBroker(
                        in: env.directory, name: id,
                        extra: """
                            connection fleet
                            address 127.0.0.1:\(fleet.port)
                            remote_username controller
                            remote_password controller-password
                            remote_clientid \(id)-bridge
                            topic # out 1 tbrd/ homes/\(id)/tbrd/
                            """)
                    brokers.append(broker)
                    try await env.startSimulator(["wpan0"])
                    try await env.startDaemon(try Self.configuration(env, broker))
                }
                try await watcher.waitFor("both homes' routers", timeout: .seconds(30)) { _ in
                    Set(watcher.messages.map(\.topic)).isSuperset(of: ["homes/home1/tbrd/routers/wpan0", "homes/home2/tbrd/routers/wpan0"])
                }
            }
        }
    }
}
