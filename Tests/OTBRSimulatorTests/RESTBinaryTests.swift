import DBus
import Foundation
import OpenThreadREST
import HTTP
import TBRTestKit
import Testing

/// The built `otbr-sim` with `--rest`: the line that gives the URL, and the usage errors.
@Suite struct RESTBinaryTests {
    @Test func theExecutablePrintsTheRESTURLAfterItsReadyLine() async throws {
        try await withPrivateBus { bus throws in
            let process = try TestProcess(
                try Executables.product("otbr-sim"),
                ["--bus", bus.address, "--interface", "wpan0", "--interface", "wpan1", "--rest", "0", "--rest", "[::1]:0"],
                directory: bus.directory)
            try await eventually("both agents are up", timeout: .seconds(10), wakingOn: process.wakeups) {
                process.stdout.split(separator: "\n").count == 4
            }
            let lines = process.stdout.split(separator: "\n").map(String.init)
            #expect(lines[0] == "ready io.openthread.BorderRouter.wpan0" && lines[2] == "ready io.openthread.BorderRouter.wpan1")
            #expect(lines[1].hasPrefix("rest wpan0 http://127.0.0.1:") && lines[3].hasPrefix("rest wpan1 http://[::1]:"))
            for line in [lines[1], lines[3]] {
                let url = try HTTPURL(String(try #require(line.split(separator: " ").last)))
                #expect(try await RESTAgent(base: url).identify().apiVersion == "0.5.0")
            }
            #expect(await process.terminate() == 0)
        }
    }

    @Test func badRESTOptionsAreUsageErrors() async throws {
        for bad in [["--rest", "0", "--rest", "0"], ["--rest", "::1:80"], ["--rest", "localhost:80"], ["--rest", "127.0.0.1:65536"],
                    ["--rest", "[::1]80"], ["--rest", ""]] {
            let r = try await ProcessRunner.run(try Executables.product("otbr-sim"), bad)
            #expect(r.status == 64, "\(bad)")
            #expect(r.stderr.contains("'--rest'"), "\(bad): \(r.stderr)")
        }
        let help = try await ProcessRunner.run(try Executables.product("otbr-sim"), ["--help"])
        #expect(help.stdout.contains("--rest") && help.stdout.contains("--disconnect-guard"))
    }
}
