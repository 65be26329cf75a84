import DBus
import Foundation
import TBRTestKit
import Testing

/// Backups and restore on a new host (issue 48) with the built tbrd, tbrctl and otbr-sim: what a home
/// was comes back whole after its state is deleted, the restored tokens still authenticate, a hostile
/// file changes nothing, and a full disk never damages the last automatic backup.
@Suite struct BackupRestoreTests {
    static let passphrase = "correct horse battery staple"

    static func passphraseFile(_ env: DaemonEnvironment, _ text: String = passphrase, mode: Int = 0o600) throws -> String {
        let path = env.directory.appendingPathComponent("passphrase-\(text.count)-\(mode)").path
        try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, mode_t(mode))
        return path
    }

    /// What the home looks like through tbrctl --json: compared before and after the restore.
    static func home(_ env: DaemonEnvironment) async throws -> [String: String] {
        var out: [String: String] = [:]
        for (name, arguments) in [
            ("networks", ["network", "list", "--structure", "Home"]), ("structure", ["structure", "show", "Home"]),
            ("policy", ["structure", "policy", "Home"]), ("tokens", ["api", "token", "list"]), ("rooms", ["structure", "room", "list", "Home"]),
            ("recovery", ["structure", "recovery", "Home"]), ("nodes", ["matter", "nodes", "--structure", "Home"]),
        ] {
            let r = try await HTTPAPITests.tbrctl(env, ["--json"] + arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            // lastSeen moves with every reading; it is not what a restore keeps.
            out[name] = r.stdout.replacingOccurrences(of: #""lastSeen" : [0-9.e+]+,?"#, with: "", options: .regularExpression)
        }
        return out
    }

    static func structureCount(_ env: DaemonEnvironment) async throws -> Int {
        let r = try await HTTPAPITests.tbrctl(env, ["--json", "structure", "list"])
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [Any], "\(r.stderr)").count
    }

    @Test func aHomeComesBackWholeOnANewHostAndItsTokensStillAuthenticate() async throws {
        try await withDaemon { env throws in
            // wpan0 in "Home", a Matter commissioner (matter-sim), the HTTPS API on loopback.
            let rig = try await CommissioningRig.start(env, matterSim: CommissioningTests.simulated, extra: "http-listen = 127.0.0.1:0\n")
            let sim = try #require(rig.matterSim)
            let config = try env.configuration(sim.tbrdConfiguration + "http-listen = 127.0.0.1:0\n")
            for step in [
                ["structure", "room", "add", "Home", "Kitchen"], ["network", "preferred", "Home", "1111111122222222"],
                ["structure", "recovery", "Home", "auto"], ["structure", "policy", "Home", "--internet-access", "all", "--no-wait"],
            ] {
                let r = try await HTTPAPITests.tbrctl(env, step)
                #expect(r.status == 0, "\(step): \(r.stderr)")
            }
            let code = CommissioningRig.code(discriminator: 100)
            env.secrets.append(code)
            let commissioned = try await HTTPAPITests.tbrctl(env, ["matter", "commission", "--structure", "Home", "--name", "Lamp", "--room", "Kitchen", code])
            #expect(commissioned.status == 0, "\(commissioned.stderr)")
            let token = try await HTTPAPITests.token(env, "dashboard", "read")
            let before = try await Self.home(env)
            #expect(before["nodes"]?.contains("Lamp") == true && before["policy"]?.contains("all") == true, "\(before)")
            let file = env.directory.appendingPathComponent("home.tbrdbackup").path
            let secret = try Self.passphraseFile(env)
            let made = try await HTTPAPITests.tbrctl(env, ["--json", "backup", "create", "--output", file, "--passphrase-file", secret])
            #expect(made.status == 0, "\(made.stderr)")
            #expect(!made.stdout.contains(demoNetworkKey) && made.stdout.contains("1111111122222222"), "the summary names networks, never a key")
            #expect(made.stdout.contains("\"matterNodes\" : 1"), "\(made.stdout)")
            var info = stat()
            #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600, "the backup holds keys: 0600")
            let shown = try await HTTPAPITests.tbrctl(env, ["backup", "show", file, "--passphrase-file", secret])
            #expect(shown.status == 0 && shown.stdout.contains("OpenThreadDemo") && !shown.stdout.contains(demoNetworkKey), "\(shown.stderr)")

            // A new host: tbrd stopped, its state deleted, started again empty.
            #expect(await env.stopDaemon() == 0)
            try FileManager.default.removeItem(atPath: env.stateDirectory)
            try await env.startDaemon(config)
            #expect(try await Self.structureCount(env) == 0)
            // The new host's radio is new too: wpan0 has no network (tbrd, holding nothing, leaves it alone).
            _ = try await RouterRecoveryTests.agent(env, "wpan0").call("FactoryReset")
            try await eventually("wpan0 has no network") { try await RouterRecoveryTests.role(env, "wpan0") == "disabled" }

            let dry = try await HTTPAPITests.tbrctl(env, ["backup", "restore", file, "--passphrase-file", secret, "--dry-run"])
            #expect(dry.status == 0 && dry.stdout.contains("can be restored"), "\(dry.stderr)")
            #expect(try await Self.structureCount(env) == 0)
            let restored = try await HTTPAPITests.tbrctl(env, ["--json", "backup", "restore", file, "--passphrase-file", secret])
            #expect(restored.status == 0, "\(restored.stderr)")
            // The restored structure's recovery is auto: the empty router is joined to its network at once.
            #expect(restored.stdout.contains("\"state\" : \"rejoined\""), "\(restored.stdout)")
            var after: [String: String] = [:]
            try await eventually("the restored home reads as it was (the policy applied again)", timeout: .seconds(30)) {
                after = try await Self.home(env)
                return after == before
            }
            for key in before.keys.sorted() where before[key] != after[key] {
                Issue.record("\(key) differs:\nbefore \(before[key] ?? "")\nafter  \(after[key] ?? "")")
            }
            let answer = try await HTTPAPITests.curl([try await HTTPAPITests.base(env) + "/api/v1/structures"], token: token)
            #expect(answer.status == 200 && answer.body.contains("Home"), "the restored token authenticates: \(answer.body)")

            // Onto a tbrd that has state: refused without --replace; with it, the old state is kept first.
            let again = try await HTTPAPITests.tbrctl(env, ["backup", "restore", file, "--passphrase-file", secret])
            #expect(again.status == 75 && again.stderr.contains("--replace"), "\(again.stderr)")
            let replaced = try await HTTPAPITests.tbrctl(env, ["--json", "backup", "restore", file, "--passphrase-file", secret, "--replace"])
            #expect(replaced.status == 0, "\(replaced.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(replaced.stdout.utf8)) as? [String: Any])
            let previous = try #require(report["previousStateBackup"] as? String)
            let check = try await HTTPAPITests.tbrctl(env, ["backup", "show", previous, "--passphrase-file", secret])
            #expect(check.status == 0 && check.stdout.contains("Home"), "\(check.stderr)")
        }
    }

    @Test func aHostileBackupIsRefusedWithItsSentenceAndChangesNothing() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon()
            #expect(try await HTTPAPITests.tbrctl(env, ["structure", "create", "Home"]).status == 0)
            let file = env.directory.appendingPathComponent("home.tbrdbackup").path
            let secret = try Self.passphraseFile(env)
            #expect(try await HTTPAPITests.tbrctl(env, ["backup", "create", "--output", file, "--passphrase-file", secret]).status == 0)
            #expect(try await HTTPAPITests.tbrctl(env, ["structure", "delete", "Home", "--yes"]).status == 0)
            let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            let wrong = try Self.passphraseFile(env, "not the passphrase at all")
            let cases: [(String, [UInt8], String, Int32, String)] = [
                ("a wrong passphrase", good, wrong, 77, "passphrase is wrong"),
                ("a truncated file", Array(good.prefix(good.count - 5)), secret, 65, "truncated"),
                ("a changed byte", good.enumerated().map { $0.offset == good.count / 2 ? $0.element ^ 1 : $0.element }, secret, 65, "changed"),
                ("a newer format", good.enumerated().map { $0.offset == 9 ? 7 : $0.element }, secret, 65, "newer tbrd"),
                ("not a backup", Array("hello".utf8), secret, 65, "not a tbrd backup"),
            ]
            for (what, bytes, passphrase, status, sentence) in cases {
                let path = env.directory.appendingPathComponent("hostile.tbrdbackup").path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let r = try await HTTPAPITests.tbrctl(env, ["backup", "restore", path, "--passphrase-file", passphrase])
                #expect(r.status == status && r.stderr.contains(sentence), "\(what): \(r.status) \(r.stderr)")
                // tbrd itself refuses it the same way when a client sends it directly.
                let words = try String(contentsOfFile: passphrase, encoding: .utf8).trimmingCharacters(in: .newlines)
                let arguments: [DBusValue] = [bytes.dbusValue, Array(words.utf8).dbusValue, .bool(false), .bool(false)]
                let direct = try? await env.manager.call("RestoreBackup", arguments)
                #expect(direct == nil, "\(what): tbrd took it")
                #expect(try await Self.structureCount(env) == 0, "\(what) changed nothing")
            }
        }
    }

    @Test func aPassphraseFileOthersCanReadStopsTbrdWithTheReason() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            let dir = env.directory.appendingPathComponent("backups").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let loose = try Self.passphraseFile(env, mode: 0o644)
            let r = try await ProcessRunner.run(
                try Executables.product("tbrd"),
                ["--bus", env.address, "--state-dir", env.stateDirectory] + (try env.configuration("backup-dir = \(dir)\nbackup-passphrase-file = \(loose)\n")))
            #expect(r.status == 78 && r.stderr.contains("others may read it"), "\(r.status) \(r.stderr)")
        }
    }

    @Test func automaticBackupsFollowChangesAndAFullDiskKeepsTheLastOne() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            // A 64 KiB tmpfs as backup-dir: room for a few backups, then full.
            let dir = env.directory.appendingPathComponent("backups").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let mount = try await ProcessRunner.run(try Executables.find("mount", package: "mount"), ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", dir])
            try #require(mount.status == 0, "mounting a tmpfs needs root: \(mount.stderr)")
            defer { _ = umount2(dir, Int32(MNT_DETACH)) }
            let secret = try Self.passphraseFile(env)
            try await env.startDaemon(try env.configuration("backup-dir = \(dir)\nbackup-passphrase-file = \(secret)\nbackup-interval = 1\nbackup-keep = 3\n"))
            func backups() -> [String] {
                ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".tbrdbackup") }.sorted()
            }
            #expect(try await HTTPAPITests.tbrctl(env, ["structure", "create", "Home"]).status == 0)
            try await eventually("a backup follows the change", timeout: .seconds(30)) { !backups().isEmpty }
            // More changes: at most backup-keep are kept, each readable.
            for room in ["Kitchen", "Hall", "Attic", "Cellar"] {
                let before = Set(backups())
                #expect(try await HTTPAPITests.tbrctl(env, ["structure", "room", "add", "Home", room]).status == 0)
                // A new backup is written, then the oldest beyond backup-keep removed.
                try await eventually("a backup follows \(room)", timeout: .seconds(30)) { Set(backups()) != before && backups().count <= 3 }
            }
            #expect(backups().count == 3, "\(backups())")
            // Fill the disk: the next backup cannot be written; the last one stays whole.
            let filler = dir + "/filler"
            let fd = Glibc.open(filler, O_WRONLY | O_CREAT, 0o600)
            var block = [UInt8](repeating: 0, count: 4096)
            while Glibc.write(fd, &block, block.count) > 0 {}
            close(fd)
            let last = try #require(backups().last)
            let lastBytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + last))
            #expect(try await HTTPAPITests.tbrctl(env, ["structure", "room", "add", "Home", "Garage"]).status == 0)
            try await eventually("tbrd says the backup was not written", timeout: .seconds(30), wakingOn: env.daemon!.wakeups) {
                env.daemon!.stderr.contains("automatic backup not written")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + last)) == lastBytes)
            let shown = try await HTTPAPITests.tbrctl(env, ["--json", "backup", "show", dir + "/" + last, "--passphrase-file", secret])
            #expect(shown.status == 0 && shown.stdout.contains("Home"), "\(shown.stderr)")
            #expect(!((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).contains { $0.hasSuffix(".new") }, "no half-written file is left")
            unlink(filler)
        }
    }
}
