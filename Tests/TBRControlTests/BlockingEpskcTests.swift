import Foundation
import TBRControl
import TBRTestKit
import Testing

/// `epskc activate` and `epskc deactivate` through tbrd on the calling thread
/// (`TBRControlMain.runBlocking`), against the built tbrd and otbr-sim: the output, JSON and exit status
/// of the async path; declined, with nothing done or written, where the async path must decide; and the
/// built tbrctl making its call with no thread but its main one.
@Suite struct BlockingEpskcTests {
    /// What one way of running a command printed, and its exit status.
    struct Run: Equatable {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The same with every ePSKc (nine digits) replaced by `KEY`: each activation draws a new one.
        var masked: Run {
            Run(status: status, stdout: stdout.replacing(/\b\d{9}\b/, with: "KEY"), stderr: stderr.replacing(/\b\d{9}\b/, with: "KEY"))
        }
    }

    /// The blocking path in-process, on a thread of its own (the call blocks); nil when it declined.
    static func blocking(_ rig: Rig, _ arguments: [String]) async throws -> Run? {
        let console = CapturedConsole()
        guard case .run(let runnable) = TBRControlMain.prepare(arguments: ["--bus", rig.bus.address] + arguments, console: console)
        else {
            Issue.record("\(arguments) did not parse into a command: \(console.errorOutput)")
            return nil
        }
        guard let status = try await onThreadOfItsOwn({ TBRControlMain.runBlocking(runnable, console: console) }) else {
            #expect(console.output == "" && console.errorOutput == "", "\(arguments) declined after writing")
            return nil
        }
        return Run(status: status, stdout: console.output, stderr: console.errorOutput)
    }

    /// The async path in-process: `TBRControlMain.main` never tries the blocking one.
    static func async(_ rig: Rig, _ arguments: [String]) async -> Run {
        let console = CapturedConsole()
        let status = await TBRControlMain.main(arguments: ["--bus", rig.bus.address] + arguments, console: console)
        return Run(status: status, stdout: console.output, stderr: console.errorOutput)
    }

    /// The built binary, which tries the blocking path first.
    static func binary(_ rig: Rig, _ arguments: [String]) async throws -> Run {
        let result = try await rig.run(arguments)
        return Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    @Test func printsAndExitsAsTheAsyncPathDoes() async throws {
        try await withRig(["wpan0", "wpan1"], withTbrd: true) { rig throws in
            let activated = try #require(try await Self.blocking(rig, ["epskc", "activate", "-d", "wpan0", "--duration", "30"]))
            #expect(activated.masked == Run(status: 0, stdout: "ePSKc KEY is active on wpan0 for 30 s\n", stderr: ""))
            rig.usedKeys.keys.withLock { $0.append(String(activated.stdout.dropFirst(6).prefix(9))) }
            for busy in [["epskc", "activate", "-d", "wpan0"], ["epskc", "activate", "-d", "wpan0", "--json"]] {
                let blocking = try #require(try await Self.blocking(rig, busy))
                let async = await Self.async(rig, busy)
                #expect(blocking == async)
                #expect(blocking.status == 75 && blocking.stderr.hasPrefix("tbrctl: an ePSKc is already active on wpan0"))
            }
            for deactivate in [
                ["epskc", "deactivate", "-d", "wpan0"], ["epskc", "deactivate", "-d", "wpan0", "--json"],
                ["epskc", "deactivate", "-d", "wpan0", "--retain-session"], ["--json", "epskc", "deactivate", "-d", "wpan0", "--retain-session"],
            ] {
                let blocking = try #require(try await Self.blocking(rig, deactivate))
                let async = await Self.async(rig, deactivate)
                #expect(blocking == async)
                #expect(blocking.status == 0 && blocking.stderr == "")
            }
            #expect(try await Self.blocking(rig, ["epskc", "deactivate", "-d", "wpan0"])?.stdout == "ePSKc of wpan0 deactivated\n")

            // A key in text and JSON, each way, ended each way.
            for activate in [["epskc", "activate", "-d", "wpan1", "--duration", "45"], ["--json", "epskc", "activate", "-d", "wpan1"]] {
                let async = await Self.async(rig, activate)
                #expect(try await Self.blocking(rig, ["epskc", "deactivate", "-d", "wpan1"])?.status == 0)
                let blocking = try #require(try await Self.blocking(rig, activate))
                #expect(await Self.async(rig, ["epskc", "deactivate", "-d", "wpan1"]).status == 0)
                #expect(blocking.masked == async.masked && blocking.status == 0, "\(blocking) vs \(async)")
                #expect(blocking.stdout != blocking.masked.stdout, "the key itself is printed: that is the point")
            }

            // Two routers and no -d: the same usage error.
            let usage = try #require(try await Self.blocking(rig, ["epskc", "activate"]))
            let asyncUsage = await Self.async(rig, ["epskc", "activate"])
            #expect(usage == asyncUsage)
            #expect(usage.status == 64 && usage.stderr.hasPrefix("tbrctl: there are 2 border routers (wpan0, wpan1); choose one with -d ROUTER"))

            // A name tbrd has no object for is looked up by the async path: declined, then the same as before.
            #expect(try await Self.blocking(rig, ["epskc", "activate", "-d", "nope"]) == nil)
            let unknown = await Self.async(rig, ["epskc", "activate", "-d", "nope"])
            #expect(unknown.status == 1 && unknown.stderr == "tbrctl: no border router named \"nope\" (known: wpan0, wpan1)\n", "\(unknown)")
            #expect(try await Self.binary(rig, ["epskc", "activate", "-d", "nope"]) == unknown)
            let agentID = try await rig.borderAgentID("wpan1")
            #expect(try await Self.blocking(rig, ["epskc", "deactivate", "-d", agentID]) == nil)
            // (Both paths name the router as it was given, the Border Agent ID, as tbrctl always has.)
            let byAgentID = try await Self.binary(rig, ["epskc", "activate", "-d", agentID, "--duration", "30"])
            #expect(byAgentID.masked == Run(status: 0, stdout: "ePSKc KEY is active on \(agentID) for 30 s\n", stderr: ""))
            #expect(try await Self.binary(rig, ["epskc", "deactivate", "-d", agentID]) == (await Self.async(rig, ["epskc", "deactivate", "-d", agentID])))
            let asyncByAgentID = await Self.async(rig, ["epskc", "activate", "-d", agentID, "--duration", "30"])
            #expect(asyncByAgentID.masked == byAgentID.masked)
            #expect(try await Self.binary(rig, ["epskc", "deactivate", "-d", "wpan1"]).status == 0)
        }
    }

    @Test func theOnlyRouterIsFoundWithOneMoreCall() async throws {
        try await withRig(["wpan0"], withTbrd: true) { rig throws in
            let blocking = try #require(try await Self.blocking(rig, ["epskc", "activate"]))
            #expect(try await Self.blocking(rig, ["epskc", "deactivate"]) == Run(status: 0, stdout: "ePSKc of wpan0 deactivated\n", stderr: ""))
            let async = await Self.async(rig, ["epskc", "activate"])
            #expect(await Self.async(rig, ["epskc", "deactivate"]).status == 0)
            #expect(blocking.masked == async.masked)
            #expect(blocking.masked == Run(status: 0, stdout: "ePSKc KEY is active on wpan0 for 120 s\n", stderr: ""))
        }
    }

    @Test func withoutTbrdItDeclinesAndDirectModeRunsAsBefore() async throws {
        try await withRig(["wpan0"]) { rig throws in
            #expect(try await Self.blocking(rig, ["epskc", "activate"]) == nil)
            #expect(try await Self.blocking(rig, ["epskc", "deactivate", "-d", "wpan0"]) == nil)
            let activated = try await Self.binary(rig, ["epskc", "activate", "--duration", "30"])
            #expect(activated.masked == Run(status: 0, stdout: "ePSKc KEY is active on wpan0 for 30 s\n", stderr: directModeNote))
            let deactivated = try await Self.binary(rig, ["epskc", "deactivate"])
            #expect(deactivated == Run(status: 0, stdout: "ePSKc of wpan0 deactivated\n", stderr: directModeNote))
        }
    }

    /// The proof from outside: a relay between the built tbrctl and the bus counts tbrctl's threads
    /// while its call is on the wire. The async path (`info`) has several by then; the blocking path one.
    @Test func theBuiltTbrctlCallsTbrdFromItsOnlyThread() async throws {
        try await withRig(["wpan0"], withTbrd: true) { rig throws in
            for (arguments, member) in [
                (["epskc", "activate", "-d", "wpan0"], "ActivateEpskcMode"), (["epskc", "deactivate"], "DeactivateEpskcMode"),
                (["info", "-d", "wpan0"], "GetAll"),
            ] {
                let relay = try BusRelay(directory: rig.bus.directory, busAddress: rig.bus.address)
                let tbrctl = try TestProcess(rig.tbrctl.path, ["--bus", relay.address] + arguments, directory: rig.bus.directory)
                let threads = try await onThreadOfItsOwn { try relay.relayOne(watchingFor: member, pid: tbrctl.pid) }
                #expect(try await tbrctl.waitForExit() == 0, "\(arguments): \(tbrctl.stderr)")
                if member == "GetAll" {
                    #expect((threads ?? 0) >= 2, "the async path runs on more than one thread: \(String(describing: threads))")
                } else {
                    #expect(threads == 1, "\(arguments) made its call with \(String(describing: threads)) threads")
                }
            }
        }
    }
}
