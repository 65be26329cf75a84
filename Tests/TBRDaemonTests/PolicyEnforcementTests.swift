import DBus
import DeviceModel
import Foundation
import OpenThreadBR
import TBRDBusAPI
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A structure's internet-access option enforced on otbr-sim routers by the built tbrd: what the agents
/// end up running is read back with `busctl`, as an outside check would; what tbrd reports is
/// `Structure1.PolicyStatus`. (The host firewall has its own tests, in network namespaces.)
@Suite(.serialized) struct PolicyEnforcementTests {
    /// `busctl get-property` of an agent property, as busctl prints it (`(ss) "disabled" "disabled"`).
    static func agentProperty(_ env: DaemonEnvironment, _ router: String, _ name: String) async throws -> String {
        let busctl = try Executables.find("busctl", package: "systemd")
        let r = try await ProcessRunner.run(
            busctl, ["--address=\(env.address)", "get-property", "io.openthread.BorderRouter.\(router)",
                     "/io/openthread/BorderRouter/\(router)", "io.openthread.BorderRouter", name])
        guard r.status == 0 else { throw TestKitError("busctl get-property \(name): \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether NAT64 is on, from `busctl get-property … Nat64State`.
    static func nat64On(_ env: DaemonEnvironment, _ router: String) async throws -> Bool {
        try await agentProperty(env, router, "Nat64State") != #"(ss) "disabled" "disabled""#
    }

    /// The feature flags, from `busctl get-property … FeatureFlagListData` (`ay N b…`).
    static func featureFlagBytes(_ env: DaemonEnvironment, _ router: String) async throws -> [UInt8] {
        let words = try await agentProperty(env, router, "FeatureFlagListData").split(separator: " ")
        guard words.first == "ay", words.count >= 2, let n = Int(words[1]), words.count == n + 2 else {
            throw TestKitError("unexpected busctl output: \(words)")
        }
        return words.dropFirst(2).compactMap { UInt8($0) }
    }

    /// Creates structure Home with `routers`; returns its Structure1 object.
    static func home(_ env: DaemonEnvironment, _ routers: [String]) async throws -> RemoteObject {
        let reply = try await env.manager.call("CreateStructure", [.string("Home")])
        guard case .objectPath(let path)? = reply.first else { throw TestKitError("no structure path") }
        for r in routers { _ = try await env.manager.call("AddBorderRouter", [.string("Home"), .string(r)]) }
        return RemoteObject(connection: env.client, destination: "io.tbrd", path: path, interface: "io.tbrd.Structure1")
    }

    /// `PolicyStatus` by router.
    static func status(_ structure: RemoteObject) async throws -> [String: PolicyStatusRow] {
        let rows = try await structure.property("PolicyStatus", as: [PolicyStatusRow].self)
        return Dictionary(rows.map { ($0.router, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Sets the option and waits until `router`'s state is `state`.
    static func set(_ option: String, on structure: RemoteObject, expecting state: RouterPolicyStatus.State = .applied, for routers: [String] = ["wpan0"])
        async throws
    {
        try await structure.setProperty("InternetAccessOption", .string(option))
        try await eventually("\(routers) \(state) under \(option)", timeout: .seconds(10), wakingOn: structure.wakeups) {
            let s = try await status(structure)
            return routers.allSatisfy { s[$0]?.state == state }
        }
    }

    @Test func everyOptionEndsOnTheRouterAsTheTableSaysAndIsSignalled() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"], extra: ["--dhcp6-pd", "--nat64-delay", "100"])
            try await env.startDaemon()
            let structure = try await Self.home(env, ["wpan0"])
            let changes = try await structure.propertiesChanged()
            for (option, nat64, pd) in [("all", true, true), ("nat64Only", true, false), ("dhcpv6PdOnly", false, true), ("none", false, false)] {
                try await Self.set(option, on: structure)
                #expect(try await Self.nat64On(env, "wpan0") == nat64, "\(option): NAT64")
                let flags = try FeatureFlagList(serialized: try await Self.featureFlagBytes(env, "wpan0"))
                #expect((flags.enableDhcp6PD ?? false) == pd, "\(option): enable_dhcp6_pd")
                // The firewall is off here (it has its own tests): options that need drop rules say so.
                let needsRules = option == "nat64Only" || option == "none"
                #expect(try await Self.status(structure)["wpan0"]?.detail == (needsRules ? "no host firewall rules: tbrd's firewall is off" : ""))
            }
            // PolicyStatus is signalled (EmitsChangedSignal true), with the rows.
            var signalled: [PolicyStatusRow] = []
            for try await s in changes {
                let changed = try s.arguments[1].decode(as: [String: DBusValue].self)
                if let rows = changed["PolicyStatus"] { signalled = try rows.decode(as: [PolicyStatusRow].self) }
                if signalled.first?.state == .applied { break }
            }
            #expect(signalled == [PolicyStatusRow(router: "wpan0", state: .applied, detail: "")])
            // Back to unspecified: tbrd stops managing, and leaves NAT64 and PD as they are.
            try await Self.set("unspecified", on: structure)
            #expect(try await Self.status(structure)["wpan0"]?.detail == "not managed")
            #expect(try await Self.nat64On(env, "wpan0") == false)
        }
    }

    @Test func aRouterBuiltWithoutNat64IsUnsupportedWithTheReason() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"], extra: ["--no-nat64"])
            try await env.startDaemon()
            let structure = try await Self.home(env, ["wpan0"])
            try await Self.set("nat64Only", on: structure, expecting: .unsupported)
            let row = try #require(try await Self.status(structure)["wpan0"])
            #expect(row.detail.contains("no NAT64") && row.detail.contains("Capabilities nat64 false"), "\(row.detail)")
            // What it cannot provide, `none` does not need.
            try await Self.set("none", on: structure)
        }
    }

    @Test func unknownFeatureFlagFieldsSurviveThePolicy() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"], extra: ["--dhcp6-pd"])
            try await env.startDaemon()
            // Someone set flags tbrd does not manage and fields no FeatureFlagList knows: detailed logging
            // (2) at level 5 (3), field 99 (varint 7) and field 100 (bytes "hi"), with PD (6) on.
            let known: [UInt8] = [0x10, 0x01, 0x18, 0x05, 0x30, 0x01]
            let unknown: [UInt8] = [0x98, 0x06, 0x07, 0xA2, 0x06, 0x02, 0x68, 0x69]
            let busctl = try Executables.find("busctl", package: "systemd")
            let bytes = known + unknown
            let set = try await ProcessRunner.run(
                busctl, ["--address=\(env.address)", "set-property", "io.openthread.BorderRouter.wpan0", "/io/openthread/BorderRouter/wpan0",
                         "io.openthread.BorderRouter", "FeatureFlagListData", "ay", "\(bytes.count)"] + bytes.map { String($0) })
            #expect(set.status == 0, "\(set.stderr)")
            let structure = try await Self.home(env, ["wpan0"])
            try await Self.set("none", on: structure)
            let after = try await Self.featureFlagBytes(env, "wpan0")
            let flags = try FeatureFlagList(serialized: after)
            #expect(flags.enableDhcp6PD == false)
            #expect(flags.enableDetailedLogging == true && flags.detailedLoggingLevel == 5)
            #expect(flags.unknownFields == unknown && Array(after.suffix(unknown.count)) == unknown, "unknown fields byte-exact: \(after)")
        }
    }

    @Test func anOfflineRouterIsPendingAndAppliedWhenItsAgentReturns() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"], extra: ["--nat64-delay", "100"])
            // wpan1 is an otbr-sim of its own, stopped and started again by the test.
            func startWpan1() async throws -> TestProcess {
                let p = try TestProcess(
                    try Executables.product("otbr-sim"),
                    ["--bus", env.address, "--dataset", demoDataset, "--role-delay", "100", "--nat64-delay", "100", "--disconnect-guard", "100", "--interface", "wpan1"],
                    directory: env.directory)
                try await eventually("wpan1's agent is ready", wakingOn: p.wakeups) { p.stdout.contains("ready") || !p.isRunning }
                return p
            }
            var wpan1 = try await startWpan1()
            do {
                try await env.startDaemon()
                try await eventually("tbrd knows wpan1") { try await env.router("wpan1").property("Online", as: Bool.self) }
                let structure = try await Self.home(env, ["wpan0", "wpan1"])
                try await Self.set("none", on: structure, for: ["wpan0", "wpan1"])
                await wpan1.terminate()
                try await eventually("wpan1 is offline", wakingOn: env.router("wpan1").wakeups) { try await env.router("wpan1").property("Online", as: Bool.self) == false }
                try await Self.set("nat64Only", on: structure, for: ["wpan0"])
                let offline = try #require(try await Self.status(structure)["wpan1"])
                #expect(offline.state == .pending && offline.detail.contains("offline"), "\(offline)")
                wpan1 = try await startWpan1()
                try await eventually("wpan1 applied once back", timeout: .seconds(10), wakingOn: structure.wakeups) {
                    try await Self.status(structure)["wpan1"]?.state == .applied
                }
                #expect(try await Self.nat64On(env, "wpan1"))
            } catch {
                await wpan1.terminate()
                throw error
            }
            await wpan1.terminate()
        }
    }

    @Test func aChangePersistedButNotAppliedWhenTbrdIsKilledIsAppliedAtTheNextStart() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"], extra: ["--nat64-delay", "100"])
            try await env.startDaemon()
            let structure = try await Self.home(env, ["wpan0"])
            try await Self.set("none", on: structure)
            let sim = try #require(env.simulator)
            // The agent stops answering: tbrd can persist the change but not apply it (its first call to
            // the agent, a read of Capabilities, waits for an answer).
            kill(sim.pid, SIGSTOP)
            do {
                try await structure.setProperty("InternetAccessOption", .string("nat64Only"))
                #expect(try await Self.status(structure)["wpan0"]?.state == .pending)
                #expect(await env.stopDaemon(signal: SIGKILL) == 128 + SIGKILL)
            } catch {
                kill(sim.pid, SIGCONT)
                throw error
            }
            kill(sim.pid, SIGCONT)
            // The simulator takes its messages in the order they reached it: this read comes after
            // anything tbrd had sent before it died.
            #expect(try await Self.nat64On(env, "wpan0") == false, "nothing was applied before the kill")
            try await env.startDaemon()
            let again = RemoteObject(connection: env.client, destination: "io.tbrd", path: structure.path, interface: structure.interface)
            #expect(try await again.property("InternetAccessOption", as: String.self) == "nat64Only", "persisted first")
            try await eventually("applied at the next start", timeout: .seconds(10), wakingOn: again.wakeups) {
                try await Self.status(again)["wpan0"]?.state == .applied
            }
            #expect(try await Self.nat64On(env, "wpan0"))
        }
    }

    @Test func driftIsCorrectedWithinTheCheckInterval() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"], extra: ["--nat64-delay", "100"])
            try await env.startDaemon(try env.configuration("policy-check-interval = 1\n"))
            let structure = try await Self.home(env, ["wpan0"])
            try await Self.set("none", on: structure)
            let busctl = try Executables.find("busctl", package: "systemd")
            let on = try await ProcessRunner.run(
                busctl, ["--address=\(env.address)", "call", "io.openthread.BorderRouter.wpan0", "/io/openthread/BorderRouter/wpan0",
                         "io.openthread.BorderRouter", "SetNat64Enabled", "b", "true"])
            #expect(on.status == 0, "\(on.stderr)")
            // Within a few intervals even on a loaded machine; far sooner than the 60 s default.
            try await eventually("tbrd read the drift back and switched NAT64 off again", timeout: .seconds(10)) {
                try await Self.nat64On(env, "wpan0") == false && env.daemon?.stderr.contains("internet-access policy drifted") == true
            }
            #expect(env.daemon?.stderr.contains("found=\"NAT64 is (") == true, "the notice says what was found")
        }
    }
}
