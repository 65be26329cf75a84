import DBus
import TBRFoundation
import Foundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DaemonTests {
    @Test func servesTheRoutersOfOtbrAgentsOnTheBus() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator()
            try await env.startDaemon()
            try await eventually("both routers are leaders") {
                let reply = try await env.manager.call("ListBorderRouters")
                guard case .array(_, let rows) = reply[0], rows.count == 2 else { return false }
                return rows.allSatisfy { row in
                    guard case .structure(let f) = row else { return false }
                    return f[3] == .bool(true) && f[4] == .string("leader") && f[5] == .string("OpenThreadDemo")
                        && f[6] == .string("1111111122222222") && f[7] == .bool(true)
                }
            }
            let wpan1 = env.router("wpan1")
            #expect(try await wpan1.property("NetworkName", as: String.self) == "OpenThreadDemo")
            #expect(try await wpan1.property("PanId", as: UInt16.self) == 0x1234)
            #expect(try await wpan1.property("Channel", as: UInt16.self) == 15)
            #expect(try await wpan1.property("InternetAccessCapability", as: String.self) == "nat64Only")
            // otbr-agent has no D-Bus property for its vendor name (only mDNS has it), and none is configured.
            #expect(try await wpan1.property("VendorName", as: String.self) == "")
            let path = try await env.manager.call("FindBorderRouter", [.string("wpan1")])
            #expect(path == [.objectPath("/io/tbrd/router/wpan1")])
            await #expect {
                try await env.manager.call("FindBorderRouter", [.string("wpan9")])
            } throws: { error in
                (error as? DBusError)?.name.rawValue == "io.tbrd.Error.NotFound"
                    && (error as? DBusError)?.message.contains("known: wpan0, wpan1") == true
            }
            // The dataset is there for an admin; it holds the network key, which the log must never show.
            let tlvs = try await wpan1.call("GetActiveDataset")
            #expect(tlvs == [.bytes(try Hex.decode(demoDataset))])
            #expect(await env.stopDaemon() == 0)
        }
    }

    @Test func epskcEventsAreJournalledThenSignalledWithTheirReasons() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator()
            try await env.startDaemon()
            let signals = try await env.client.signals(matching: MatchRule(
                sender: "io.tbrd", pathNamespace: "/io/tbrd/router", interface: "io.tbrd.BorderRouter1"))
            let a = try await env.activate("wpan0", seconds: 30)
            #expect(a.status == "success" && a.valid == 30)
            #expect(try await env.activate("wpan0", seconds: 30).status == "busy")
            let b = try await env.activate("wpan1", seconds: 30)
            _ = try await env.simulatorControl("wpan1").call("UseEphemeralKey", [.string(b.key)])
            _ = try await env.router("wpan0").call("DeactivateEpskcMode", [.bool(false)])
            var seen: [(UInt64, String, String)] = []
            for try await s in signals {
                let seq = try s.arguments[0].decode(as: UInt64.self), router = try s.arguments[1].decode(as: String.self)
                seen.append((seq, router, s.member == "EpskcModeActivated" ? "activated" : try s.arguments[2].decode(as: String.self)))
                if seen.count == 4 { break }
            }
            let journal = try await env.journal()
            // Every signal was journalled first, under the same sequence number.
            for (seq, router, what) in seen {
                #expect(journal.contains { $0.0 == seq && $0.1 == router && ($0.2 == what || $0.3 == what) })
            }
            #expect(Set(seen.map(\.2)) == ["activated", "keyUsed", "cancelled"])
            #expect(journal.map(\.0) == Array(1...4))
            await #expect {
                _ = try await env.activate("wpan0", seconds: 601)
            } throws: { error in
                (error as? DBusError)?.name.rawValue == "io.tbrd.Error.InvalidArgument"
                    && (error as? DBusError)?.message == "an ePSKc duration must be 1…600 seconds, not 601"
            }
        }
    }

    @Test func restartDuringAnActiveKeyStillDeliversItsEnd() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator()
            try await env.startDaemon()
            let key = try await env.activate("wpan0", seconds: 60).key
            // tbrd dies hard; the key is used while it is down.
            #expect(await env.stopDaemon(signal: SIGKILL) == 128 + SIGKILL)
            #expect(try await env.simulatorControl("wpan0").call("UseEphemeralKey", [.string(key)]) == [.bool(true)])
            let signals = try await env.client.signals(matching: MatchRule(
                pathNamespace: "/io/tbrd/router", interface: "io.tbrd.BorderRouter1", member: "EpskcModeDeactivated"))
            try await env.startDaemon()
            try await eventually("the end is journalled") { try await env.journal().count == 2 }
            let journal = try await env.journal()
            #expect(journal.map(\.0) == [1, 2])
            #expect(journal[1].2 == "deactivated" && journal[1].3 == "keyUsed" && journal[1].1 == "wpan0")
            var it = signals.makeAsyncIterator()
            let end = try #require(try await it.next())
            #expect(end.arguments[0] == .uint64(2) && end.arguments[2] == .string("keyUsed"))
        }
    }

    @Test func routersGoOfflineAndComeBackWithTheirAgents() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator()
            try await env.startDaemon()
            let wpan1 = env.router("wpan1")
            try await eventually("wpan1 is online", wakingOn: wpan1.wakeups) { try await wpan1.property("Online", as: Bool.self) }
            let changes = try await wpan1.propertiesChanged()
            _ = try await env.simulatorControl("wpan1").call("Crash", [.uint32(500)])
            var onlineValues: [Bool] = []
            for try await s in changes {
                let changed = try s.arguments[1].decode(as: [String: DBusValue].self)
                if let online = changed["Online"] { onlineValues.append(try online.decode(as: Bool.self)) }
                if onlineValues.count == 2 { break }
            }
            #expect(onlineValues == [false, true])
            // Offline meanwhile, never forgotten: still listed.
            let reply = try await env.manager.call("ListBorderRouters")
            guard case .array(_, let rows) = reply[0] else { Issue.record("no list"); return }
            #expect(rows.count == 2)
        }
    }

    @Test func knownRoutersAreListedOfflineAfterARestartWithoutTheirAgents() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan3"])
            try await env.startDaemon()
            try await eventually("wpan3 is known") { try await env.router("wpan3").property("Online", as: Bool.self) }
            await env.stopDaemon()
            if let sim = env.simulator { _ = await sim.terminate() }
            env.simulator = nil
            try await env.startDaemon()
            let reply = try await env.manager.call("ListBorderRouters")
            guard case .array(_, let rows) = reply[0], case .structure(let f)? = rows.first else {
                Issue.record("no routers listed")
                return
            }
            #expect(rows.count == 1 && f[1] == .string("wpan3") && f[3] == .bool(false))
        }
    }

    @Test func structuresPersistAcrossRestarts() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon()
            let path = try await env.manager.call("CreateStructure", [.string("Home")])
            guard case .objectPath(let structurePath)? = path.first else { Issue.record("no path"); return }
            await #expect(throws: DBusError.self) { try await env.manager.call("CreateStructure", [.string("Home")]) }
            _ = try await env.manager.call("AddBorderRouter", [.string("Home"), .string("wpan0")])
            let structure = RemoteObject(connection: env.client, destination: "io.tbrd", path: structurePath, interface: "io.tbrd.Structure1")
            try await structure.setProperty("InternetAccessOption", .string("nat64Only"))
            try await structure.setProperty("DefaultThreadNetworkId", .string("1111111122222222"))
            await #expect {
                try await structure.setProperty("InternetAccessOption", .string("everything"))
            } throws: { ($0 as? DBusError)?.name.rawValue == "io.tbrd.Error.InvalidArgument" }
            await env.stopDaemon()
            try await env.startDaemon()
            #expect(try await structure.property("Name", as: String.self) == "Home")
            #expect(try await structure.property("InternetAccessOption", as: String.self) == "nat64Only")
            #expect(try await structure.property("DefaultThreadNetworkId", as: String.self) == "1111111122222222")
            #expect(try await structure.property("BorderRouters", as: [ObjectPath].self) == ["/io/tbrd/router/wpan0"])
            #expect(try await env.router("wpan0").property("Structure", as: String.self) == "Home")
            _ = try await env.manager.call("RemoveBorderRouter", [.string("Home"), .string("wpan0")])
            #expect(try await structure.property("BorderRouters", as: [ObjectPath].self) == [])
        }
    }

    @Test func stateFileIsPrivateAndASecondDaemonIsRefused() async throws {
        try await withDaemon { env throws in
            try await env.startDaemon()
            var st = stat()
            #expect(stat(env.stateDirectory + "/tbrd.db", &st) == 0)
            #expect(st.st_mode & 0o777 == 0o600)
            #expect(stat(env.stateDirectory, &st) == 0 && st.st_mode & 0o777 == 0o700)
            let second = try await ProcessRunner.run(
                try Executables.product("tbrd"),
                ["--bus", env.address, "--state-dir", env.stateDirectory + "2"] + (try env.configuration("")), timeout: .seconds(20))
            #expect(second.status == 69)
            #expect(second.stderr.contains("io.tbrd is already owned"))
        }
    }

    @Test func commandLineAndConfigurationErrorsHaveTheirExitCodes() async throws {
        let tbrd = try Executables.product("tbrd")
        let usage = try await ProcessRunner.run(tbrd, ["--log-level", "loud"])
        #expect(usage.status == 64 && usage.stderr.contains("'--log-level'"))
        let dir = try TemporaryDirectory.make(prefix: "tbrd-conf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("tbrd.conf")
        try "log-level = info\nwat = 3\n".write(to: conf, atomically: true, encoding: .utf8)
        let bad = try await ProcessRunner.run(tbrd, ["--config", conf.path])
        #expect(bad.status == 78 && bad.stderr.contains("line 2: unknown setting 'wat'"))
        let help = try await ProcessRunner.run(tbrd, ["--help"])
        #expect(help.status == 0 && help.stdout.contains("--state-dir DIR") && help.stdout.contains("shutdown-timeout"))
        let unreachable = try await ProcessRunner.run(tbrd, ["--bus", "unix:path=/nonexistent/bus", "--state-dir", dir.appendingPathComponent("s").path])
        #expect(unreachable.status == 69)
        // A state directory that is a file: the database cannot be created.
        let file = dir.appendingPathComponent("not-a-directory")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let unusable = try await ProcessRunner.run(tbrd, ["--state-dir", file.path])
        #expect(unusable.status == 73 && unusable.stderr.contains("cannot use the state database"), "\(unusable.stderr)")
    }

    @Test func sighupReloadsTheLogLevelWithoutStopping() async throws {
        try await withDaemon { env throws in
            let conf = env.directory.appendingPathComponent("tbrd.conf")
            try "log-level = warning\nfirewall = off\n".write(to: conf, atomically: true, encoding: .utf8)
            let p = try TestProcess(
                try Executables.product("tbrd"), ["--bus", env.address, "--state-dir", env.stateDirectory, "--config", conf.path],
                directory: env.directory)
            env.daemon = p
            try await eventually("tbrd owns io.tbrd", wakingOn: env.client.ownerWakeups(of: "io.tbrd")) { try await env.client.nameOwner(of: "io.tbrd") != nil }
            #expect(!p.stderr.contains("tbrd is ready"))  // a notice, below the configured warning level
            try "log-level = debug\nfirewall = off\n".write(to: conf, atomically: true, encoding: .utf8)
            kill(p.pid, SIGHUP)
            try await eventually("the reload is logged", wakingOn: p.wakeups) { p.stderr.contains("configuration reloaded log-level=debug") }
            _ = try await env.manager.call("ListStructures")
            #expect(p.isRunning)
            try "log-level = loud\nfirewall = off\n".write(to: conf, atomically: true, encoding: .utf8)
            kill(p.pid, SIGHUP)
            try await eventually("the bad file is refused", wakingOn: p.wakeups) { p.stderr.contains("configuration not reloaded") }
            #expect(p.isRunning)
        }
    }
}

/// The state directory is tbrd's own and private.
@Suite struct StateDirectoryTests {
    @Test func aLooseStateDirectoryIsTightenedAndASharedOneRefused() async throws {
        try await withDaemon { env throws in
            try FileManager.default.createDirectory(atPath: env.stateDirectory, withIntermediateDirectories: true)
            chmod(env.stateDirectory, 0o755)
            try await env.startDaemon()
            var st = stat()
            #expect(stat(env.stateDirectory, &st) == 0 && st.st_mode & 0o777 == 0o700)
            #expect(env.daemon?.stderr.contains("made the state directory private") == true)
            await env.stopDaemon()

            let shared = env.directory.appendingPathComponent("shared").path
            try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
            chmod(shared, 0o1777)
            let refused = try await ProcessRunner.run(
                try Executables.product("tbrd"), ["--bus", env.address, "--state-dir", shared], timeout: .seconds(20))
            #expect(refused.status == 73 && refused.stderr.contains("shared directory (sticky bit set)"), "\(refused.stderr)")
            #expect(stat(shared, &st) == 0 && st.st_mode & 0o7777 == 0o1777, "a shared directory is left as it was")
        }
    }
}
