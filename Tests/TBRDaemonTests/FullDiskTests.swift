import DBus
import Foundation
import TBRDBusAPI
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Journal before signal, with the state directory on a full disk (a small tmpfs the test mounts).
@Suite(.serialized) struct FullDiskTests {
    /// Fills the file system of `directory` until it has no room left.
    static func fill(_ directory: String) {
        let fd = open(directory + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) > 0 {}
        // The last partial page: write single bytes until nothing more fits.
        while block.withUnsafeBytes({ write(fd, $0.baseAddress!, 1) }) > 0 {}
    }

    @Test func anActivationThatCannotBeJournalledIsWithdrawnAndRefused() async throws {
        guard getuid() == 0 else { throw TestKitError("this test mounts a tmpfs: it needs root; make test runs as root") }
        try await withDaemon { env throws in
            try FileManager.default.createDirectory(atPath: env.stateDirectory, withIntermediateDirectories: true)
            let mount = try await ProcessRunner.run(
                try Executables.find("mount", package: "mount"), ["-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", env.stateDirectory])
            guard mount.status == 0 else { throw TestKitError("cannot mount a tmpfs: \(mount.stderr)") }
            defer { _ = umount2(env.stateDirectory, Int32(MNT_DETACH)) }

            try await env.startSimulator(["wpan0"])
            try await env.startDaemon()
            let signals = try await env.client.signals(matching: MatchRule(
                sender: "io.tbrd", pathNamespace: "/io/tbrd/router", interface: "io.tbrd.BorderRouter1"))
            // One key that is journalled, so the database has grown to its working size.
            _ = try await env.activate("wpan0", seconds: 30)
            _ = try await env.router("wpan0").call("DeactivateEpskcMode", [.bool(false)])
            Self.fill(env.stateDirectory)

            await #expect {
                _ = try await env.activate("wpan0", seconds: 30)
            } throws: { error in
                guard let e = error as? DBusError else { return false }
                return e.name.rawValue == "io.tbrd.Error.Failed" && e.message.contains("could not be recorded")
                    && e.message.contains("it was withdrawn")
            }
            // The router has no key: a direct activation on the agent is not Busy.
            let agent = RemoteObject(
                connection: env.client, destination: "io.openthread.BorderRouter.wpan0", path: "/io/openthread/BorderRouter/wpan0",
                interface: "io.openthread.BorderRouter")
            let direct = try await agent.call("ActivateEphemeralKeyMode", [.uint32(30_000)])
            env.secrets.append(try direct[0].decode(as: String.self))
            _ = try await agent.call("DeactivateEphemeralKeyMode", [.bool(false)])

            // Every signal that went out carries a real sequence number: the first key's start and end only.
            var seen: [UInt64] = []
            var it = signals.makeAsyncIterator()
            while seen.count < 2, let s = try await it.next() { seen.append(try s.arguments[0].decode(as: UInt64.self)) }
            #expect(seen == [1, 2])
            let log = try #require(env.daemon).stderr
            #expect(log.contains("ePSKc start not recorded; the key is withdrawn"))
            // With room again, keys work as before.
            try FileManager.default.removeItem(atPath: env.stateDirectory + "/filler")
            #expect(try await env.activate("wpan0", seconds: 30).status == "success")
            let next = try #require(try await it.next())
            #expect(next.member == "EpskcModeActivated" && next.arguments[0] == .uint64(3))
        }
    }

    /// The journal's events as (kind, reason) pairs.
    static func journal(_ env: DaemonEnvironment) async throws -> [(String, String)] {
        let reply = try await env.manager.call("EpskcEvents", [.uint64(0), .string(""), .uint32(0)])
        return try reply[0].decode(as: [EpskcJournalRow].self).map { ($0.kind, $0.reason) }
    }

    /// A key ended while the disk is full: its end is kept in memory and journalled (and only then
    /// signalled) as soon as a write succeeds; and a tbrd restarted before that closes the session
    /// from the agent's state, also when the disk is still full when it starts.
    @Test func anEndThatCannotBeJournalledIsJournalledOnceThereIsRoomAndAfterARestart() async throws {
        guard getuid() == 0 else { throw TestKitError("this test mounts a tmpfs: it needs root; make test runs as root") }
        try await withDaemon { env throws in
            try FileManager.default.createDirectory(atPath: env.stateDirectory, withIntermediateDirectories: true)
            let mount = try await ProcessRunner.run(
                try Executables.find("mount", package: "mount"), ["-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", env.stateDirectory])
            guard mount.status == 0 else { throw TestKitError("cannot mount a tmpfs: \(mount.stderr)") }
            defer { _ = umount2(env.stateDirectory, Int32(MNT_DETACH)) }
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon()

            // Room comes back while tbrd runs: the end is journalled, then signalled.
            let signals = try await env.client.signals(matching: MatchRule(
                sender: "io.tbrd", pathNamespace: "/io/tbrd/router", interface: "io.tbrd.BorderRouter1", member: "EpskcModeDeactivated"))
            _ = try await env.activate("wpan0", seconds: 300)
            Self.fill(env.stateDirectory)
            _ = try await env.router("wpan0").call("DeactivateEpskcMode", [.bool(false)])
            try await eventually("tbrd says the end is pending", timeout: .seconds(10), wakingOn: #require(env.daemon).wakeups) {
                env.daemon?.stderr.contains("ePSKc end not recorded yet") == true
            }
            #expect(try await Self.journal(env).map(\.0) == ["activated"], "nothing journalled on a full disk")
            try FileManager.default.removeItem(atPath: env.stateDirectory + "/filler")
            var it = signals.makeAsyncIterator()
            let ended = try #require(try await it.next())
            #expect(ended.arguments[0] == .uint64(2), "signalled with its journal sequence, once journalled")
            #expect(try await Self.journal(env).map(\.0) == ["activated", "deactivated"])
            #expect(try await Self.journal(env).last?.1 == "cancelled")

            // tbrd stops before room comes back: the session stays open in the journal; the next tbrd
            // closes it from the agent's state (the key is gone).
            _ = try await env.activate("wpan0", seconds: 300)
            Self.fill(env.stateDirectory)
            _ = try await env.router("wpan0").call("DeactivateEpskcMode", [.bool(false)])
            try await eventually("the second end is pending", timeout: .seconds(10), wakingOn: #require(env.daemon).wakeups) {
                (env.daemon?.stderr.components(separatedBy: "ePSKc end not recorded yet").count ?? 0) >= 3
            }
            #expect(await env.stopDaemon() == 0)
            // Restarted while the disk is still full: the recovered end waits in memory too.
            try await env.startDaemon()
            try await eventually("the restarted tbrd finds the end and cannot journal it yet", timeout: .seconds(20), wakingOn: #require(env.daemon).wakeups) {
                env.daemon?.stderr.contains("ePSKc end not recorded yet") == true
            }
            try FileManager.default.removeItem(atPath: env.stateDirectory + "/filler")
            try await eventually("the restarted tbrd journals the end", timeout: .seconds(20)) {
                try await Self.journal(env).map(\.0) == ["activated", "deactivated", "activated", "deactivated"]
            }
        }
    }
}
