import TBRTestKit
import Testing

/// Exit statuses when what a command needs is missing (69), and usage errors of the device and
/// structure commands (64), from the built binary.
@Suite struct UnavailableAndUsageTests {
    @Test func withNeitherTbrdNorAnAgentDeviceCommandsExit69() async throws {
        try await withRig([]) { rig throws in
            for arguments in [["list"], ["info"], ["epskc", "activate"], ["epskc", "deactivate"], ["epskc", "watch"],
                              ["dataset", "show", "-d", "wpan0"], ["network", "leave", "--yes"], ["list", "--json"]] {
                let result = try await rig.run(arguments)
                #expect(result.status == 69, "\(arguments)")
                #expect(result.stdout == "", "\(arguments)")
                #expect(
                    result.stderr.hasPrefix("tbrctl: neither tbrd nor any otbr-agent is on the unix:path="),
                    "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("start tbrd or otbr-agent"), "\(arguments)")
            }
        }
    }

    @Test func structureCommandsNeedTbrd() async throws {
        try await withRig(["wpan0"]) { rig throws in
            let cases: [[String]] = [
                ["structure", "list"], ["structure", "create", "Home"], ["structure", "add", "Home", "wpan0"],
                ["structure", "remove", "Home", "wpan0"], ["structure", "show", "Home"], ["structure", "list", "--json"],
            ]
            for arguments in cases {
                let result = try await rig.run(arguments)
                #expect(result.status == 69, "\(arguments)")
                #expect(result.stderr.contains("needs tbrd, which is not running on the unix:path="), "\(arguments)")
                #expect(result.stderr.contains("start it with 'systemctl start tbrd'"), "\(arguments)")
            }
        }
    }

    @Test func anUnreachableBusExits69() async throws {
        let tbrctl = try TbrctlBinary()
        for arguments in [["list"], ["structure", "list"], ["epskc", "watch", "--once"]] {
            let result = try await tbrctl.run(["--bus", "unix:path=/nonexistent/tbrctl-test-bus"] + arguments)
            #expect(result.status == 69, "\(arguments)")
            #expect(result.stderr.hasPrefix("tbrctl: cannot connect"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func usageErrorsOfDeviceCommandsExit64() async throws {
        let tbrctl = try TbrctlBinary()
        let cases: [([String], String)] = [
            (["epskc", "activate", "--duration", "0"], "invalid value '0' for '--duration': an ePSKc duration is a number of seconds from 1 to 600"),
            (["epskc", "activate", "--duration", "601"], "invalid value '601' for '--duration': an ePSKc duration is a number of seconds from 1 to 600"),
            (["epskc", "watch", "--since", "-1"], "invalid value '-1' for '--since': a sequence number is a whole number from 0"),
            (["epskc", "watch", "--timeout", "0"], "invalid value '0' for '--timeout': a timeout is a number of seconds above 0"),
            (["list", "-d", "wpan0"], "option '-d' does not apply to 'tbrctl list'"),
            (["structure", "add", "Home"], "missing ROUTER for 'tbrctl structure add'"),
            (["structure", "create", " "], "a structure name cannot be empty"),
            (["epskc", "deactivate", "--yes"], "option '--yes' does not apply to 'tbrctl epskc deactivate'"),
            (["info", "-d"], "missing value for '-d'; expected ROUTER"),
        ]
        for (arguments, message) in cases {
            let result = try await tbrctl.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix("tbrctl: \(message)"), "\(arguments): \(result.stderr)")
        }
        // Global options go before or after the command words.
        let late = try await tbrctl.run(["list", "--bus", "unix:path=/nonexistent/x", "--json"])
        #expect(late.status == 69 && late.stderr.contains("/nonexistent/x"))
    }
}
