import DBus
import Foundation
import Synchronization
import TBRFoundation
import TBRTestKit
import Testing

/// Problems opened and closed all the time (issue 49), with the built tbrd, tbrctl and otbr-sim: a
/// router that stops being a router opens `router-lost` (and the doctor's `thread-attached`) on its role
/// signal, and both close when it leads again; D-Bus, the HTTPS API and tbrctl say the same; the history
/// outlives a restart of tbrd.
@Suite struct HealthTests {
    /// `ProblemOpened` and `ProblemClosed` as (member, subject, check), collected as they come.
    static func problemSignals(_ env: DaemonEnvironment) async throws -> Locked<[[String]]> {
        let seen = Locked<[[String]]>([])
        for member in ["ProblemOpened", "ProblemClosed"] {
            let signals = try await env.manager.signals(try MemberName(member))
            Task {
                for try await signal in signals {
                    let words = signal.arguments.dropFirst().compactMap { try? $0.decode(as: String.self) }
                    seen.withLock { $0.append([member] + words) }
                }
            }
        }
        return seen
    }

    static func problems(_ env: DaemonEnvironment, _ arguments: [String] = []) async throws -> (status: Int32, rows: [[String: Any]]) {
        let r = try await HTTPAPITests.tbrctl(env, ["--json", "health"] + arguments)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], "\(r.stderr)")
        return (r.status, rows)
    }

    /// `tbrctl --json health history`: the problems and the samples.
    static func history(_ env: DaemonEnvironment, _ arguments: [String]) async throws -> (problems: [[String: Any]], samples: [[String: Any]]) {
        let r = try await HTTPAPITests.tbrctl(env, ["--json", "health", "history"] + arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stderr)")
        return (try #require(object["problems"] as? [[String: Any]]), try #require(object["samples"] as? [[String: Any]]))
    }

    /// Whether `seen` holds `member` about `subject` and `check`.
    static func saw(_ seen: Locked<[[String]]>, _ member: String, _ subject: String, _ check: String) -> Bool {
        seen.withLock { s in s.contains { $0.count >= 3 && $0[0] == member && $0[1] == subject && $0[2] == check } }
    }

    /// Two routers of one structure on one network that are two partitions (two otbr-sims each lead its
    /// own: they are not in radio range) open `partition` on both once they share the structure, and it
    /// closes when one leaves the structure. The backstop is an hour: only the structure's change can
    /// have caused either.
    @Test func routersOfAStructureInTwoPartitionsOpenPartition() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0", "wpan1"])
            try await env.startDaemon(try env.configuration("health-interval = 3600\n"))
            let seen = try await Self.problemSignals(env)
            for router in ["wpan0", "wpan1"] {
                try await eventually("\(router) leads") { try await RouterRecoveryTests.role(env, router) == "leader" }
            }
            _ = try await PolicyEnforcementTests.home(env, ["wpan0", "wpan1"])
            try await eventually("partition opens on both", timeout: .seconds(30)) {
                Self.saw(seen, "ProblemOpened", "wpan0", "partition") && Self.saw(seen, "ProblemOpened", "wpan1", "partition")
            }
            let open = try await Self.problems(env)
            let partition = try #require(open.rows.first { $0["check"] as? String == "partition" && $0["subject"] as? String == "wpan0" })
            let message = partition["message"] as? String ?? ""
            #expect(message.contains("wpan1 in partition 0x") && message.contains("of Home"), "\(message)")

            _ = try await env.manager.call("RemoveBorderRouter", [.string("Home"), .string("wpan1")])
            try await eventually("partition closes", timeout: .seconds(30)) {
                Self.saw(seen, "ProblemClosed", "wpan0", "partition") && Self.saw(seen, "ProblemClosed", "wpan1", "partition")
            }
        }
    }

    /// A Matter node the Matter server reports unavailable opens `matter-unavailable` naming the node, its
    /// room, its last known parent router (from its Thread Network Diagnostics) and what is open on the
    /// structure's routers; available again, it closes, and the history has
    /// both. tbrd does not follow the server's events (docs/operations.md): it looks at each router
    /// change and at the backstop, here every 10 s (its least).
    @Test func aMatterNodeTheServerCannotReachOpensMatterUnavailable() async throws {
        try await withDaemon { env throws in
            let rig = try await CommissioningRig.start(env, matterSim: CommissioningTests.simulated, extra: "health-interval = 10\n")
            let sim = try #require(rig.matterSim)
            _ = try await HTTPAPITests.tbrctl(env, ["structure", "room", "add", "Home", "Kitchen"])
            let code = CommissioningRig.code(discriminator: 100)
            env.secrets.append(code)
            let commissioned = try await HTTPAPITests.tbrctl(env, ["matter", "commission", "--structure", "Home", "--name", "Lamp", "--room", "Kitchen", code])
            #expect(commissioned.status == 0, "\(commissioned.stderr)")
            let controller = try await MatterController.connect(sim.url)
            defer { Task { await controller.close() } }
            let node = try #require(try await controller.nodeIDs().first)
            let seen = try await Self.problemSignals(env)
            // The node is a sleepy end device whose parent is wpan0, as its Thread Network Diagnostics say.
            let wpan0 = try await RouterRecoveryTests.agent(env, "wpan0").property("ExtendedAddress", as: UInt64.self)
            try await controller.command("sim_set_thread_parent", #"{"node_id": \#(node), "ext_address": \#(wpan0), "lqi": 180, "average_rssi": -71}"#)

            try await controller.command("sim_set_available", #"{"node_id": \#(node), "available": false}"#)
            try await eventually("matter-unavailable opens", timeout: .seconds(30)) { Self.saw(seen, "ProblemOpened", "node \(node)", "matter-unavailable") }
            let open = try #require(try await Self.problems(env).rows.first { $0["check"] as? String == "matter-unavailable" })
            let message = open["message"] as? String ?? ""
            #expect(message.contains("Matter node \(node) (\"Lamp\" in Kitchen) of Home is unavailable") && message.contains("wpan0 network-key"), "\(message)")
            #expect(message.contains("its last known parent is wpan0 (LQI 180, average RSSI -71 dBm)"), "\(message)")

            try await controller.command("sim_set_available", #"{"node_id": \#(node), "available": true}"#)
            try await eventually("and closes", timeout: .seconds(30)) { Self.saw(seen, "ProblemClosed", "node \(node)", "matter-unavailable") }
            let history = try await Self.history(env, ["--router", "node \(node)"])
            // The first look may come after the node went (the backstop had not passed): it ends unavailable, then available.
            #expect(history.samples.compactMap { $0["state"] as? String }.suffix(2) == ["unavailable", "available"], "\(history.samples)")
        }
    }

    @Test func aRouterThatStopsLeadingOpensRouterLostAndLeadingAgainClosesIt() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\n"))
            let seen = try await Self.problemSignals(env)
            let token = try await HTTPAPITests.token(env, "monitor", "read")
            let curl = try Executables.find("curl", package: "curl")
            let stream = try TestProcess(
                curl, ["-s", "-N", "-H", "Authorization: Bearer \(token)", "\(try await HTTPAPITests.base(env))/api/v1/events"], directory: env.directory)
            defer { Task { _ = await stream.terminate() } }
            try await eventually("the event stream is open", wakingOn: stream.wakeups) { stream.stdout.contains(": open") }
            try await eventually("wpan0 leads") { try await RouterRecoveryTests.role(env, "wpan0") == "leader" }

            _ = try await RouterRecoveryTests.agent(env, "wpan0").call("Detach")
            try await eventually("router-lost and thread-attached open for wpan0", timeout: .seconds(30)) {
                seen.withLock { s in
                    s.contains { $0.count >= 3 && $0[0] == "ProblemOpened" && $0[1] == "wpan0" && $0[2] == "router-lost" }
                        && s.contains { $0.count >= 3 && $0[0] == "ProblemOpened" && $0[1] == "wpan0" && $0[2] == "thread-attached" }
                }
            }
            let open = try await Self.problems(env)
            #expect(open.status == 1, "an open problem: exit 1")
            let lost = try #require(open.rows.first { $0["check"] as? String == "router-lost" })
            #expect(lost["subject"] as? String == "wpan0" && (lost["message"] as? String)?.contains("was leader") == true, "\(lost)")
            #expect(lost["closedAt"] is NSNull)
            let api = try await HTTPAPITests.curl([try await HTTPAPITests.base(env) + "/api/v1/health"], token: token)
            #expect(api.status == 200 && api.body.contains("router-lost"), "\(api.body)")
            try await eventually("the problem event is on the stream", wakingOn: stream.wakeups) {
                stream.stdout.contains("event: problem") && stream.stdout.contains(#""check":"router-lost""#)
            }

            _ = try await RouterRecoveryTests.agent(env, "wpan0").call("Attach", timeout: .seconds(30))
            try await eventually("both close once wpan0 leads again", timeout: .seconds(30)) {
                seen.withLock { s in
                    s.contains { $0.count >= 3 && $0[0] == "ProblemClosed" && $0[1] == "wpan0" && $0[2] == "router-lost" }
                        && s.contains { $0.count >= 3 && $0[0] == "ProblemClosed" && $0[1] == "wpan0" && $0[2] == "thread-attached" }
                }
            }
            let still = try await Self.problems(env).rows.filter { $0["subject"] as? String == "wpan0" }.compactMap { $0["check"] as? String }
            #expect(!still.contains("router-lost") && !still.contains("thread-attached"), "\(still)")

            // The history keeps them, closed, across a restart of tbrd.
            #expect(await env.stopDaemon() == 0)
            try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\n"))
            let history = try await Self.history(env, ["--router", "wpan0", "--since", "1h"])
            let lostRows = history.problems.filter { $0["check"] as? String == "router-lost" }
            #expect(lostRows.count == 1 && lostRows.allSatisfy { $0["closedAt"] is String && $0["openedAt"] is String }, "\(lostRows)")
            // The samples say what the role did: leader, then less, then leader again.
            let states = history.samples.compactMap { $0["state"] as? String }
            let led = try #require(states.firstIndex(of: "leader"), "\(history.samples)")
            #expect(states[led...].contains { $0 == "disabled" || $0 == "detached" } && states.last == "leader", "\(history.samples)")
            #expect(history.samples.allSatisfy { $0["subject"] as? String == "wpan0" && $0["at"] is String })
            #expect(history.samples.contains { $0["partition"] is Int && $0["routers"] is Int && $0["children"] is Int }, "\(history.samples)")
            let timeline = try await HTTPAPITests.tbrctl(env, ["health", "history", "-d", "wpan0"])
            #expect(timeline.status == 0 && timeline.stdout.contains("role detached") && timeline.stdout.contains("opened router-lost"), "\(timeline.stdout)")
            let usage = try await HTTPAPITests.tbrctl(env, ["health", "--since", "1h"])
            #expect(usage.status == 64, "--since goes with history: \(usage.stderr)")
        }
    }
}
