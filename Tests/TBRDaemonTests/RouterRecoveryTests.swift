import DBus
import Foundation
import Synchronization
import TBRFoundation
import TBRTestKit
import Testing

/// A router of a structure that comes back empty (issue 48), against the built tbrd and otbr-sim: its
/// agent's `FactoryReset` is what the real agent does (it keeps its bus name, turns `disabled`, and its
/// Active dataset is gone). `auto` joins it back and its child returns; `ask` only reports it, on D-Bus,
/// the HTTPS API's events and the doctor; a router in no structure is left alone.
@Suite struct RouterRecoveryTests {
    static let child: UInt64 = 0x1122_3344_5566_7788

    /// wpan0 in "Home" with dataset A preferred (its credentials held: they come from wpan0), wpan1 in
    /// no structure; the structure's `RouterEmpty` signals collected.
    static func start(_ env: DaemonEnvironment, recovery: String, extra: String = "") async throws -> Locked<[[String]]> {
        try await env.startSimulator(["wpan0", "wpan1"])
        try await env.startDaemon(try env.configuration(extra))
        for step in [["structure", "create", "Home"], ["structure", "add", "Home", "wpan0"], ["network", "preferred", "Home", "1111111122222222"]] {
            let r = try await HTTPAPITests.tbrctl(env, step)
            #expect(r.status == 0, "\(step): \(r.stderr)")
        }
        let set = try await HTTPAPITests.tbrctl(env, ["--json", "structure", "recovery", "Home", recovery])
        #expect(set.status == 0 && set.stdout.contains("\"recovery\" : \"\(recovery)\""), "\(set.stdout) \(set.stderr)")
        let seen = try await routerEmptySignals(env)
        // A sleepy child on wpan0's network, in its mesh.
        _ = try await env.simulatorControl("wpan0").call(
            "AddNode", [.string("child"), .uint64(child), .uint64(0), .byte(3), .bool(false), .bool(false), .uint32(240)])
        try await eventually("the child is in wpan0's mesh") { try await hasChild(env) }
        return seen
    }

    /// The `RouterEmpty` signals of structure "Home", collected as they come.
    static func routerEmptySignals(_ env: DaemonEnvironment) async throws -> Locked<[[String]]> {
        let reply = try await env.manager.call("FindStructure", [.string("Home")])
        guard case .objectPath(let path)? = reply.first else { throw TestKitError("no structure path") }
        let structure = RemoteObject(connection: env.client, destination: "io.tbrd", path: path, interface: "io.tbrd.Structure1")
        let seen = Locked<[[String]]>([])
        let signals = try await structure.signals("RouterEmpty")
        Task {
            for try await signal in signals {
                let words = signal.arguments.compactMap { try? $0.decode(as: String.self) }
                seen.withLock { $0.append(words) }
            }
        }
        return seen
    }

    static func hasChild(_ env: DaemonEnvironment) async throws -> Bool {
        let r = try await HTTPAPITests.tbrctl(env, ["--json", "mesh", "-d", "wpan0"])
        return r.status == 0 && r.stdout.contains(String(child, radix: 16))
    }

    static func agent(_ env: DaemonEnvironment, _ interface: String) -> RemoteObject {
        RemoteObject(
            connection: env.client, destination: try! BusName("io.openthread.BorderRouter." + interface),
            path: try! ObjectPath("/io/openthread/BorderRouter/" + interface), interface: "io.openthread.BorderRouter")
    }

    static func role(_ env: DaemonEnvironment, _ interface: String) async throws -> String {
        try await agent(env, interface).property("DeviceRole", as: String.self)
    }

    /// The doctor's `structure-network` check of wpan0 (the doctor exits 1 when a check fails).
    static func structureCheck(_ env: DaemonEnvironment) async throws -> [String: Any] {
        let r = try await HTTPAPITests.tbrctl(env, ["--json", "doctor", "-d", "wpan0"])
        let doctor = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stderr)")
        return try #require((doctor["checks"] as? [[String: Any]])?.first { $0["id"] as? String == "structure-network" })
    }

    @Test func autoJoinsAResetRouterBackAndItsChildReturns() async throws {
        try await withDaemon { env throws in
            let seen = try await Self.start(env, recovery: "auto")
            _ = try await Self.agent(env, "wpan0").call("FactoryReset")
            try await eventually("tbrd says it joined wpan0 back", timeout: .seconds(30)) {
                seen.withLock { $0.contains { $0.first == "wpan0" && $0.dropFirst().first == "rejoined" } }
            }
            try await eventually("wpan0 leads the preferred network again with its child", timeout: .seconds(30)) {
                let dataset = try await HTTPAPITests.tbrctl(env, ["--json", "dataset", "show", "-d", "wpan0"])
                let role = try await Self.role(env, "wpan0")
                let child = try await Self.hasChild(env)
                return dataset.stdout.contains("1111111122222222") && role == "leader" && child
            }
            #expect(try await Self.structureCheck(env)["status"] as? String == "pass")
        }
    }

    @Test func askReportsWithTheFixAndSendsNothingAndARouterOutsideIsLeftAlone() async throws {
        try await withDaemon { env throws in
            let seen = try await Self.start(env, recovery: "ask", extra: "http-listen = 127.0.0.1:0\n")
            let token = try await HTTPAPITests.token(env, "dashboard", "read")
            let curl = try Executables.find("curl", package: "curl")
            let stream = try TestProcess(
                curl, ["-s", "-N", "-H", "Authorization: Bearer \(token)", "\(try await HTTPAPITests.base(env))/api/v1/events"], directory: env.directory)
            defer { Task { _ = await stream.terminate() } }
            try await eventually("the event stream is open", wakingOn: stream.wakeups) { stream.stdout.contains(": open") }

            _ = try await Self.agent(env, "wpan1").call("FactoryReset")
            _ = try await Self.agent(env, "wpan0").call("FactoryReset")
            try await eventually("tbrd reports wpan0 empty", timeout: .seconds(30)) {
                seen.withLock { $0.contains { $0.first == "wpan0" && $0.dropFirst().first == "empty" } }
            }
            let signal = try #require(seen.withLock { $0.first { $0.first == "wpan0" } })
            #expect(signal.last?.contains("tbrctl structure recover Home wpan0") == true, "\(signal)")
            try await eventually("the recovery event is on the HTTPS API's stream", wakingOn: stream.wakeups) {
                stream.stdout.contains("event: recovery") && stream.stdout.contains(#""state":"empty""#)
            }
            let check = try await Self.structureCheck(env)
            #expect(check["status"] as? String == "fail" && check["fix"] as? String == "tbrctl structure recover Home wpan0", "\(check)")
            // Nothing was sent: both stay without a network (wpan1, in no structure, is never reported).
            let roles = (try await Self.role(env, "wpan0"), try await Self.role(env, "wpan1"))
            #expect(roles.0 == "disabled" && roles.1 == "disabled")
            #expect(seen.withLock { !$0.contains { $0.first == "wpan1" } })
            #expect(try await Self.hasChild(env) == false)

            // The one command the report gives mends it.
            let recovered = try await HTTPAPITests.tbrctl(env, ["--json", "structure", "recover", "Home", "wpan0"])
            #expect(recovered.status == 0 && recovered.stdout.contains("rejoined"), "\(recovered.stdout) \(recovered.stderr)")
            try await eventually("wpan0 is back with its child", timeout: .seconds(30)) {
                let role = try await Self.role(env, "wpan0")
                let child = try await Self.hasChild(env)
                return role == "leader" && child
            }
            #expect(try await Self.role(env, "wpan1") == "disabled", "a router in no structure is left alone")
        }
    }

    @Test func aRouterOnAnotherNetworkIsReportedDivergedAndNeverMoved() async throws {
        try await withDaemon { env throws in
            let seen = try await Self.start(env, recovery: "auto")
            let other = try await HTTPAPITests.tbrctl(env, ["dataset", "new", "--name", "Garage", "--extpanid", "9a9a9a9a9a9a9a9a"])
            let hex = other.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            // Another controller moves wpan0 (not through tbrd), then its agent restarts.
            _ = try await Self.agent(env, "wpan0").call("Join", [try Hex.decode(hex).dbusValue])
            _ = try await env.simulatorControl("wpan0").call("Crash", [.uint32(100)])
            try await eventually("tbrd reports wpan0 diverged", timeout: .seconds(30)) {
                seen.withLock { $0.contains { $0.first == "wpan0" && $0.dropFirst().first == "diverged" } }
            }
            // Its agent answers again after the crash, still on Garage: never moved back automatically.
            try await eventually("wpan0 answers on Garage", timeout: .seconds(30)) {
                let role = try? await Self.role(env, "wpan0")
                let dataset = try await HTTPAPITests.tbrctl(env, ["--json", "dataset", "show", "-d", "wpan0"])
                return role == "leader" && dataset.stdout.contains("9a9a9a9a9a9a9a9a")
            }
            let check = try await Self.structureCheck(env)
            #expect(check["status"] as? String == "fail" && check["fix"] as? String == "tbrctl structure migrate Home", "\(check)")
        }
    }

    /// A border router on another host, reset through its REST API as an admin would (`PUT /node/state
    /// "disable"`, then `DELETE /node`): tbrd notices it by polling and joins it back.
    @Test func aRESTRouterResetThroughItsAPIComesBackWithAuto() async throws {
        try await withDaemon { env throws in
            let remote = try await RemoteAgent(in: env, interface: "wpan3")
            defer { Task { await remote.stop() } }
            let url = remote.url
            try await env.startDaemon(try env.configuration("rest-poll-interval = 0.2\n"))
            for step in [
                ["router", "add", url, "--id", "remote"], ["structure", "create", "Home"], ["structure", "add", "Home", "remote"],
                ["network", "preferred", "Home", "1111111122222222"], ["structure", "recovery", "Home", "auto"],
            ] {
                let r = try await HTTPAPITests.tbrctl(env, step)
                #expect(r.status == 0, "\(step): \(r.stderr)")
            }
            let seen = try await Self.routerEmptySignals(env)
            try await eventually("the REST router leads", timeout: .seconds(30)) {
                try await HTTPAPITests.tbrctl(env, ["--json", "info", "-d", "remote"]).stdout.contains("leader")
            }
            let disabled = try await HTTPAPITests.curl(["-X", "PUT", "-H", "Content-Type: application/json", "-d", "\"disable\"", url + "/node/state"])
            #expect(disabled.status == 200 || disabled.status == 204, "\(disabled.status) \(disabled.body)")
            let reset = try await HTTPAPITests.curl(["-X", "DELETE", url + "/node"])
            #expect(reset.status == 200 || reset.status == 204, "\(reset.status) \(reset.body)")
            try await eventually("tbrd says it joined the REST router back", timeout: .seconds(30)) {
                seen.withLock { $0.contains { $0.first == "remote" && $0.dropFirst().first == "rejoined" } }
            }
            try await eventually("the REST router leads the preferred network again", timeout: .seconds(30)) {
                let state = try await HTTPAPITests.curl([url + "/node/state"])
                let dataset = try await HTTPAPITests.curl(["-H", "Accept: text/plain", url + "/node/dataset/active"])
                return state.body.contains("leader") && dataset.body.lowercased().contains("1111111122222222")
            }
        }
    }
}
