import DBus
import Foundation
import OpenThreadBR
import TBRTestKit
import Testing

/// `tbrctl mesh` and `tbrctl doctor` against otbr-sim's simulated mesh, through tbrd and directly: what
/// the agent's tables say (the real agent's ChildTable defects included), read fresh on each call.
@Suite struct MeshCommandTests {
    static let router: UInt64 = 0x1122_3344_5566_7788
    static let twoHopRouter: UInt64 = 0x2222_3344_5566_7788
    static let children: [UInt64] = [0xC1C1_C1C1_C1C1_C1C1, 0xC2C2_C2C2_C2C2_C2C2, 0xC3C3_C3C3_C3C3_C3C3]
    static let twoHopChild: UInt64 = 0xC4C4_C4C4_C4C4_C4C4

    /// Adds a node to wpan0's mesh; returns its RLOC16.
    @discardableResult
    static func add(_ rig: Rig, _ kind: String, _ address: UInt64, parent: UInt64 = 0, lq: UInt8 = 3, rxOn: Bool = true) async throws
        -> UInt16
    {
        let reply = try await rig.control(
            "wpan0", "AddNode",
            [.string(kind), .uint64(address), .uint64(parent), .byte(lq), .bool(rxOn), .bool(kind == "router"), .uint32(240)])
        guard case .uint16(let rloc16)? = reply.first else { throw DBusError(.failed, "AddNode returned \(reply)") }
        return rloc16
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func nodes(_ object: [String: Any]) -> [String: [String: Any]] {
        var byAddress: [String: [String: Any]] = [:]
        for node in object["nodes"] as? [[String: Any]] ?? [] { byAddress[node["extAddress"] as? String ?? ""] = node }
        return byAddress
    }

    @Test(arguments: [true, false]) func theMeshAsTheAgentsTablesSayIt(throughTbrd: Bool) async throws {
        try await withRig(withTbrd: throughTbrd) { rig in
            try await Self.add(rig, "router", Self.router, lq: 2)
            try await Self.add(rig, "router", Self.twoHopRouter, parent: Self.router)
            for child in Self.children { try await Self.add(rig, "child", child, rxOn: child != Self.children[2]) }
            try await Self.add(rig, "child", Self.twoHopChild, parent: Self.router)
            // The first child leaves: its slot is empty, so the agent's ChildTable lists nobody after it.
            _ = try await rig.control("wpan0", "RemoveNode", [.uint64(Self.children[0])])

            let (result, mesh) = try await rig.json(["mesh", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(mesh["router"] as? String == "wpan0")
            #expect(mesh["partitionId"] is Int && mesh["leaderRouterId"] is Int)
            let nodes = Self.nodes(mesh)
            // One hop only over D-Bus: the border router, the router and the two children left.
            #expect(Set(nodes.keys) == Set([Self.router, Self.children[1], Self.children[2]].map(Self.hex)).union(nodes.keys.filter {
                nodes[$0]?["source"] as? String == "self"
            }))
            #expect(nodes.count == 4)
            let me = try #require(nodes.values.first { $0["source"] as? String == "self" })
            #expect(me["role"] as? String == "leader")
            let myRloc = try #require(me["rloc16"] as? String)
            let router = try #require(nodes[Self.hex(Self.router)])
            #expect(router["role"] as? String == "router" && router["linkQualityIn"] as? Int == 2 && router["parent"] is NSNull)
            for child in Self.children.dropFirst() {
                let node = try #require(nodes[Self.hex(child)], "every child is listed, although ChildTable stops at the empty slot")
                #expect(node["role"] as? String == "child" && node["parent"] as? String == me["extAddress"] as? String)
                #expect((node["rloc16"] as? String)?.prefix(4) == myRloc.prefix(4), "a child's RLOC16 is its parent's router id")
                #expect(node["timeout"] is NSNull, "ChildTable no longer lists it, so its timeout is unknown")
            }
            let sleepy = try #require(nodes[Self.hex(Self.children[2])]?["mode"] as? [String: Any])
            #expect(sleepy["rxOnWhenIdle"] as? Bool == false && sleepy["fullThreadDevice"] as? Bool == false)
            let prefixes = try #require((mesh["networkData"] as? [String: Any])?["onMeshPrefixes"] as? [[String: Any]])
            #expect(prefixes.contains { $0["omr"] as? Bool == true }, "the border router publishes an OMR prefix")

            // A new child takes the empty slot: ChildTable lists everyone again, with timeouts.
            try await Self.add(rig, "child", 0xC5C5_C5C5_C5C5_C5C5)
            let (_, refilled) = try await rig.json(["mesh", "--json"])
            #expect(Self.nodes(refilled)[Self.hex(Self.children[1])]?["timeout"] as? Int == 240)

            // A node that leaves is gone at the next read.
            _ = try await rig.control("wpan0", "RemoveNode", [.uint64(Self.router)])
            let (_, after) = try await rig.json(["mesh", "--json"])
            #expect(Self.nodes(after)[Self.hex(Self.router)] == nil)

            let text = try await rig.run(["mesh"])
            #expect(text.status == 0 && text.stdout.contains("(this border router)") && text.stdout.contains("└── "))
            #expect(text.stdout.contains(Self.hex(Self.children[1])) && text.stdout.contains("OMR"))
        }
    }

    @Test func theDotGraphRendersWithGraphviz() async throws {
        try await withRig(withTbrd: true) { rig in
            try await Self.add(rig, "router", Self.router)
            try await Self.add(rig, "child", Self.children[0], rxOn: false)
            let graph = try await rig.run(["mesh", "--format", "dot"])
            #expect(graph.status == 0, "\(graph.stderr)")
            let dot = try Executables.find("dot", package: "graphviz")
            let svg = try await ProcessRunner.run(dot, ["-Tsvg"], stdin: graph.stdout)
            #expect(svg.status == 0, "dot refused the graph: \(svg.stderr)")
            #expect(svg.stdout.contains("<svg") && svg.stdout.contains(Self.hex(Self.router)) && svg.stdout.contains(Self.hex(Self.children[0])))
            let both = try await rig.run(["--json", "mesh", "--format", "dot"])
            #expect(both.status == 64)
            let bad = try await rig.run(["mesh", "--format", "png"])
            #expect(bad.status == 64 && bad.stderr.contains("text, json or dot"))
        }
    }

    @Test func doctorReadsTheRouterAndSaysWhatItRead() async throws {
        // Dataset A carries the specification's example network key: the doctor must call it out.
        try await withRig(withTbrd: true) { rig in
            let (result, report) = try await rig.json(["doctor", "--json"])
            #expect(result.status == 1, "a failing check exits 1")
            #expect(report["router"] as? String == "wpan0")
            let checks = try #require(report["checks"] as? [[String: Any]])
            func check(_ id: String) -> [String: Any]? { checks.first { $0["id"] as? String == id } }
            #expect(check("network-key")?["status"] as? String == "fail")
            #expect((check("network-key")?["fix"] as? String)?.isEmpty == false)
            #expect(check("agent-reachable")?["status"] as? String == "pass")
            #expect(check("rcp-version")?["status"] as? String == "pass")
            #expect(check("cca-failure-rate")?["status"] as? String == "pass")
            #expect(check("multi-ail")?["status"] as? String == "pass")
            for c in checks {
                #expect(["pass", "warn", "fail", "unsupported"].contains(c["status"] as? String ?? ""))
                #expect((c["message"] as? String)?.isEmpty == false)
            }

            _ = try await rig.control("wpan0", "SetRadioHealth", [.uint16(0x8000), .bool(true), .string("")])
            let (_, sick) = try await rig.json(["doctor", "--json"])
            let after = try #require(sick["checks"] as? [[String: Any]])
            func status(_ id: String) -> String? { after.first { $0["id"] as? String == id }?["status"] as? String }
            #expect(status("rcp-version") == "fail" && status("multi-ail") == "fail" && status("cca-failure-rate") == "warn")
            let text = try await rig.run(["doctor"])
            #expect(text.status == 1 && text.stdout.contains("fix: ") && text.stdout.contains("multi-ail"))
        }
    }

    /// The checks this rig can break, broken through the real parts and put right again, each read back
    /// through tbrd (the OMR route, RA settings, the firewall and a second network on mDNS are broken in
    /// network namespaces by DoctorNamespaceTests and RemoteDoctorTests).
    @Test func doctorFailsWhatIsBrokenAndPassesItMended() async throws {
        // No avahi-daemon on the system bus tbrd is given.
        let noBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/tbrd-test-no-system-bus"]
        try await withRig(withTbrd: true, tbrdConfiguration: "policy-check-interval = 3600\n", tbrdEnvironment: noBus) { rig in
            func checks() async throws -> (Int32, [String: [String: Any]]) {
                let (result, report) = try await rig.json(["doctor", "--json", "-d", "wpan0"])
                var byID: [String: [String: Any]] = [:]
                for c in report["checks"] as? [[String: Any]] ?? [] { byID[c["id"] as? String ?? ""] = c }
                return (result.status, byID)
            }
            func status(_ c: [String: [String: Any]], _ id: String) -> String { c[id]?["status"] as? String ?? "missing" }
            func message(_ c: [String: [String: Any]], _ id: String) -> String { c[id]?["message"] as? String ?? "" }

            var (code, c) = try await checks()
            #expect(code == 1 && status(c, "avahi") == "fail", "\(String(describing: c["avahi"]))")
            #expect(status(c, "internet-access-policy") == "pass" && status(c, "nat64") == "pass", "no structure: nothing to hold")

            // A policy the router's agent cannot provide (built without NAT64): the policy is a warning
            // (the router cannot provide it), and NAT64 cannot be read, which is said, not failed.
            try await rig.control("wpan0", "SetCapabilities", [.bool(false), .bool(false)])
            #expect(try await rig.run(["structure", "create", "Home"]).status == 0)
            #expect(try await rig.run(["structure", "add", "Home", "wpan0"]).status == 0)
            let refused = try await rig.run(["structure", "policy", "Home", "--internet-access", "nat64-only"])
            #expect(refused.status == 1, "\(refused.stdout)")
            (_, c) = try await checks()
            #expect(status(c, "internet-access-policy") == "warn", "\(message(c, "internet-access-policy"))")
            #expect(status(c, "nat64") == "unsupported" && message(c, "nat64").contains("Nat64State"), "\(message(c, "nat64"))")

            // The agent can again, and the policy is set again: applied at once (the command waits for
            // it), and the doctor sees NAT64 run as the policy wants.
            try await rig.control("wpan0", "SetCapabilities", [.bool(true), .bool(false)])
            let again = try await rig.run(["structure", "policy", "Home", "--internet-access", "nat64-only"])
            #expect(again.status == 0 && again.stdout.contains("wpan0   applied"), "\(again.stdout)\(again.stderr)")
            try await eventually("NAT64 runs as the policy wants") {
                let (_, now) = try await checks()
                return status(now, "nat64") == "pass" && status(now, "internet-access-policy") == "pass"
            }
            (_, c) = try await checks()
            #expect(message(c, "nat64").contains("as Home's policy nat64-only wants"), "\(message(c, "nat64"))")

            // Detached: everything else still read, the role fails.
            let agent = RemoteObject(
                connection: rig.connection, destination: "io.openthread.BorderRouter.wpan0", path: "/io/openthread/BorderRouter/wpan0",
                interface: "io.openthread.BorderRouter")
            _ = try await agent.call("Detach")
            try await eventually("the doctor sees the router detached") { status(try await checks().1, "thread-attached") == "fail" }
            (code, c) = try await checks()
            #expect(code == 1 && status(c, "agent-reachable") == "pass")
            #expect(message(c, "thread-attached").contains("not attached to a network"), "\(message(c, "thread-attached"))")

            // The agent gone (crashed, not back for ten minutes): reachability fails and says what to do.
            try await rig.control("wpan0", "Crash", [.uint32(600_000)])
            try await eventually("the doctor sees the agent gone") { status(try await checks().1, "agent-reachable") == "fail" }
            (code, c) = try await checks()
            #expect(code == 1 && (c["agent-reachable"]?["fix"] as? String)?.isEmpty == false)
        }
    }

    @Test func doctorWithoutTbrdSaysSo() async throws {
        try await withRig(withTbrd: false) { rig in
            let (result, report) = try await rig.json(["doctor", "--json"])
            #expect(result.status == 1)
            let checks = try #require(report["checks"] as? [[String: Any]])
            #expect(checks.count == 1 && checks[0]["id"] as? String == "tbrd" && checks[0]["status"] as? String == "fail")
        }
    }
}
