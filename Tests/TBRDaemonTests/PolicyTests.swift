import DBus
import Foundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// config/dbus/io.tbrd.conf, loaded by a private dbus-daemon configured like Debian's system bus:
/// group tbrd may read, root and group tbrd-admin may mutate, everyone else is refused.
@Suite(.serialized) struct PolicyTests {
    /// Debian's system-bus defaults (deny owning and calling, allow replies), plus root owning anything
    /// (tbrd and otbr-sim run as root in this test), then tbrd's own policy file.
    static func policy() throws -> (policy: String, include: String) {
        let include = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/dbus/io.tbrd.conf").path
        guard FileManager.default.fileExists(atPath: include) else { throw TestKitError("missing \(include)") }
        let policy = """
              <policy context="default">
                <allow user="*"/>
                <deny own="*"/>
                <deny send_type="method_call"/>
                <allow send_type="signal"/>
                <allow send_requested_reply="true" send_type="method_return"/>
                <allow send_requested_reply="true" send_type="error"/>
                <allow receive_type="method_call"/>
                <allow receive_type="method_return"/>
                <allow receive_type="error"/>
                <allow receive_type="signal"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
              </policy>
              <policy user="root">
                <allow own="*"/>
                <allow send_destination="*"/>
              </policy>
            """
        return (policy, include)
    }

    /// The gid of `group`, created as a system group if this machine has none (the test runs as root).
    static func gid(_ group: String) async throws -> gid_t {
        if let g = getgrnam(group) { return g.pointee.gr_gid }
        let r = try await ProcessRunner.run(try Executables.find("groupadd", package: "passwd"), ["--system", group])
        guard r.status == 0 || r.status == 9, let g = getgrnam(group) else { throw TestKitError("cannot create group \(group): \(r.stderr)") }
        return g.pointee.gr_gid
    }

    /// Runs busctl as uid nobody with only `groups` as supplementary groups.
    static func busctl(as groups: [gid_t], _ address: String, _ arguments: [String]) async throws -> ProcessResult {
        let setpriv = try Executables.find("setpriv", package: "util-linux")
        let busctl = try Executables.find("busctl", package: "systemd")
        let groupList = groups.isEmpty ? ["--clear-groups"] : ["--groups=" + groups.map { String($0) }.joined(separator: ",")]
        return try await ProcessRunner.run(
            setpriv, ["--reuid=nobody", "--regid=nogroup"] + groupList + ["--", busctl, "--address=" + address] + arguments)
    }

    @Test func readersReadAdminsMutateOthersAreRefused() async throws {
        guard getuid() == 0 else { throw TestKitError("this test needs root (to run clients as other users); make test runs as root") }
        // The groups must exist before the bus reads the policy: dbus-daemon ignores rules for unknown groups.
        let reader = try await Self.gid("tbrd"), admin = try await Self.gid("tbrd-admin")
        let (policy, include) = try Self.policy()
        let bus = try await PrivateBus.start(policy: policy, includes: [include])
        defer { bus.stop() }
        // Other users must reach the socket.
        chmod(bus.directory.path, 0o755)
        let env = try await DaemonEnvironment(bus: bus)
        do {
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon()
            let path = "/io/tbrd/router/wpan0"
            let read = try await Self.busctl(as: [reader], bus.address, ["get-property", "io.tbrd", path, "io.tbrd.BorderRouter1", "Online"])
            #expect(read.status == 0 && read.stdout.contains("b true"), "\(read.stderr) \(read.stdout)")
            let list = try await Self.busctl(as: [reader], bus.address, ["call", "io.tbrd", "/io/tbrd", "io.tbrd.Manager1", "ListBorderRouters"])
            #expect(list.status == 0, "\(list.stderr)")
            let mutate = try await Self.busctl(as: [reader], bus.address, ["call", "io.tbrd", path, "io.tbrd.BorderRouter1", "ActivateEpskcMode", "q", "30"])
            #expect(mutate.status != 0 && mutate.stderr.lowercased().contains("access denied"), "\(mutate.stderr)")
            let create = try await Self.busctl(as: [reader], bus.address, ["call", "io.tbrd", "/io/tbrd", "io.tbrd.Manager1", "CreateStructure", "s", "X"])
            #expect(create.status != 0 && create.stderr.lowercased().contains("access denied"), "\(create.stderr)")
            let stranger = try await Self.busctl(as: [], bus.address, ["get-property", "io.tbrd", path, "io.tbrd.BorderRouter1", "Online"])
            #expect(stranger.status != 0 && stranger.stderr.lowercased().contains("access denied"), "\(stranger.stderr)")
            let adminCall = try await Self.busctl(as: [admin], bus.address, ["call", "io.tbrd", "/io/tbrd", "io.tbrd.Manager1", "CreateStructure", "s", "Home"])
            #expect(adminCall.status == 0, "\(adminCall.stderr)")
            // The internet-access policy: group tbrd reads it, only admins write it.
            let home = ["io.tbrd", "/io/tbrd/structure/1", "io.tbrd.Structure1"]
            let writeOption = try await Self.busctl(as: [reader], bus.address, ["set-property"] + home + ["InternetAccessOption", "s", "none"])
            #expect(writeOption.status != 0 && writeOption.stderr.lowercased().contains("access denied"), "\(writeOption.stderr)")
            let readStatus = try await Self.busctl(as: [reader], bus.address, ["get-property"] + home + ["PolicyStatus"])
            #expect(readStatus.status == 0 && readStatus.stdout.hasPrefix("a(sss)"), "\(readStatus.stderr)")
            #expect(try await Self.busctl(as: [reader], bus.address, ["get-property"] + home + ["InternetAccessOption"]).stdout == "s \"unspecified\"\n")
            let adminOption = try await Self.busctl(as: [admin], bus.address, ["set-property"] + home + ["InternetAccessOption", "s", "nat64Only"])
            #expect(adminOption.status == 0, "\(adminOption.stderr)")
            // Nothing the reader tried changed anything.
            let structures = try await env.manager.call("ListStructures")
            guard case .array(_, let rows) = structures[0] else { throw TestKitError("no structures") }
            #expect(rows.count == 1)
        } catch {
            await env.finish()
            throw error
        }
        await env.finish()
    }

    /// tbrd as the packaged unit runs it: as the user tbrd, allowed by the shipped policy to own io.tbrd
    /// and to call the otbr-agents, which the bus's defaults (and otbr-agent's own policy) refuse to
    /// anyone but root. The user comes from the shipped sysusers file, through systemd-sysusers.
    @Test func tbrdRunsAsItsOwnUserAndReachesOtbrAgentThroughTheShippedPolicy() async throws {
        guard getuid() == 0 else { throw TestKitError("this test needs root (to run tbrd as the user tbrd); make test runs as root") }
        let sysusers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/sysusers/tbrd.conf").path
        let created = try await ProcessRunner.run(try Executables.find("systemd-sysusers", package: "systemd"), [sysusers])
        #expect(created.status == 0, "systemd-sysusers: \(created.stderr)")
        let user = try #require(getpwnam("tbrd"), "the sysusers file creates the user tbrd")
        let (uid, gid) = (user.pointee.pw_uid, user.pointee.pw_gid)
        #expect(getgrnam("tbrd-admin") != nil, "and the group tbrd-admin")

        let (policy, include) = try Self.policy()
        let bus = try await PrivateBus.start(policy: policy, includes: [include])
        defer { bus.stop() }
        chmod(bus.directory.path, 0o755)
        let env = try await DaemonEnvironment(bus: bus)
        do {
            try await env.startSimulator(["wpan0"])
            try FileManager.default.createDirectory(atPath: env.stateDirectory, withIntermediateDirectories: true)
            chown(env.stateDirectory, uid, gid)
            chmod(env.directory.path, 0o755)
            let setpriv = try Executables.find("setpriv", package: "util-linux")
            let daemon = try TestProcess(
                setpriv,
                ["--reuid=tbrd", "--regid=tbrd", "--init-groups", "--", try Executables.product("tbrd"), "--bus", bus.address,
                 "--state-dir", env.stateDirectory] + (try env.configuration("")),
                directory: env.directory)
            env.daemon = daemon
            try await eventually("tbrd, as the user tbrd, owns io.tbrd", wakingOn: daemon.wakeups, env.client.ownerWakeups(of: "io.tbrd")) {
                guard daemon.isRunning else { throw TestKitError("tbrd exited: \(daemon.stderr)") }
                return try await env.client.nameOwner(of: "io.tbrd") != nil
            }
            // Reading the agent (properties) and calling it (a method of io.openthread.BorderRouter).
            try await eventually("wpan0 is online through tbrd", wakingOn: env.router("wpan0").wakeups) {
                (try? await env.router("wpan0").property("Online", as: Bool.self)) == true
            }
            let activated = try await env.activate("wpan0", seconds: 30)
            #expect(activated.status == "success" && activated.key.count == 9, "ActivateEpskcMode through tbrd: \(activated.status)")
            // The same user without the shipped policy is what otbr-agent's own policy leaves it: refused.
            let direct = try await ProcessRunner.run(
                setpriv,
                ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", try Executables.find("busctl", package: "systemd"),
                 "--address=" + bus.address, "get-property", "io.openthread.BorderRouter.wpan0", "/io/openthread/BorderRouter/wpan0",
                 "io.openthread.BorderRouter", "DeviceRole"])
            #expect(direct.status != 0 && direct.stderr.lowercased().contains("access denied"), "\(direct.stderr)")
        } catch {
            await env.finish()
            throw error
        }
        await env.finish()
    }
}
