import Testing
import TBRControl

/// tbrctl as a whole: the tree, help, version and usage errors, both in-process and as the binary.
@Suite struct TbrctlTests {
    /// Runs tbrctl in-process and returns its status and console.
    func runInProcess(_ arguments: [String], input: String = "") async -> (Int32, CapturedConsole) {
        let console = CapturedConsole(input: input)
        return (await TBRControlMain.main(arguments: arguments, console: console), console)
    }

    @Test func theCommandTreeIsSound() {
        #expect(TBRControlMain.commandTreeProblems() == [])
    }

    @Test func runsInProcessWithACapturedConsole() async {
        let (status, console) = await runInProcess(["dataset", "decode", "-", "--json"], input: Vectors.datasetA)
        #expect(status == 0)
        #expect(console.output.contains("\"networkName\" : \"OpenThreadDemo\""))
        #expect(console.errorOutput == "")
        let (before, beforeConsole) = await runInProcess(["--json", "dataset", "decode", "-"], input: Vectors.datasetA)
        #expect(before == 0 && beforeConsole.output == console.output)
    }

    @Test func usageErrorsExit64NamingTheWord() async throws {
        let (status, console) = await runInProcess(["dataset", "decode", Vectors.datasetA, "--frob"])
        #expect(status == 64)
        #expect(console.output == "")
        #expect(console.errorOutput == "tbrctl: unknown option '--frob'\nRun 'tbrctl dataset decode --help' for usage.\n")

        // Help for a command that does not exist is a usage error too, not the parent's help.
        for line in [["frob", "--help"], ["epskc", "frob", "--help"]] {
            let (helpStatus, helpConsole) = await runInProcess(line)
            #expect(helpStatus == 64, "\(line)")
            #expect(helpConsole.output == "", "\(line)")
            #expect(helpConsole.errorOutput.hasPrefix("tbrctl: unknown command 'frob'"), "\(line): \(helpConsole.errorOutput)")
        }

        let binary = try TbrctlBinary()
        let cases: [([String], String)] = [
            (["dataset", "decode"], "missing HEX|- for 'tbrctl dataset decode'"),
            (["dataset", "decod", "00"], "unknown command 'decod' for 'tbrctl dataset'; expected one of: show, decode, validate, new, pskc"),
            (["epskc", "generate", "--reveal-secrets"], "option '--reveal-secrets' does not apply to 'tbrctl epskc generate'"),
            (["dataset"], "missing command for 'tbrctl dataset'; expected one of: show, decode, validate, new, pskc"),
        ]
        for (arguments, message) in cases {
            let result = try await binary.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix("tbrctl: \(message)\nRun 'tbrctl"), "\(arguments)")
        }
    }

    @Test func versionAndHelpFromTheBinary() async throws {
        let binary = try TbrctlBinary()
        let version = try await binary.run(["--version"])
        #expect(version.status == 0 && version.stdout == "tbrctl \(TBRControlMain.version)\n")

        let help = try await binary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: tbrctl [--json] [--bus system|session|ADDRESS] [--version] <command>"))
        for name in ["list", "info", "epskc", "network", "dataset", "structure"] {
            #expect(help.stdout.contains("\n  \(name) "), "tbrctl help lists \(name)")
        }
        #expect(try await binary.run(["help"]).stdout == help.stdout)

        let dataset = try await binary.run(["dataset", "--help"])
        #expect(dataset.status == 0)
        for name in ["show", "decode", "validate", "new", "pskc"] {
            #expect(dataset.stdout.contains("\n  \(name) "), "dataset help lists \(name)")
        }
        let new = try await binary.run(["help", "dataset", "new"])
        #expect(new.stdout.contains("USAGE: tbrctl dataset new [--name NAME] [--channel CHANNEL] [--panid PANID]"))
        #expect(new.stdout.contains("  --channel CHANNEL       Radio channel, 11 to 26 (default: random)."))
        #expect(new.stdout.contains("GLOBAL OPTIONS:\n  --json"))
        #expect(try await binary.run(["dataset", "new", "-h", "--channel", "99"]).stdout == new.stdout, "help wins")
    }
}
