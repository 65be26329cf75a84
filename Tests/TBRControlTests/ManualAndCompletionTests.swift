import Foundation
import TBRCommandLine
import TBRControl
import TBRTestKit
import Testing

/// tbrctl(1) and the bash, zsh and fish completion scripts are generated from the command tree. These
/// tests hold each to the tree: every command and option is in the page, and a real bash, zsh and fish
/// complete every command word, every option, the words of an option's value, and the router ids and
/// structure names of a running tbrd.
@Suite struct ManualAndCompletionTests {
    /// A command as the user sees it: the words after `tbrctl`, its subcommands and every option it
    /// accepts (its own and the global ones of the commands above it).
    struct Command {
        var words: [String]
        var subcommands: [String]
        var ownOptions: [String]
        var options: [String]
    }

    /// Every visible command of tbrctl's tree.
    static let commands: [Command] = CommandTree(root: TBRControlMain.rootCommand).paths.compactMap { path in
        guard !path.contains(where: { $0.configuration.isHidden }), let command = path.last else { return nil }
        let inherited = path.dropLast().flatMap { $0.arguments.filter(\.isGlobal) }
        let options = (inherited + command.arguments).filter { $0.kind != .positional }.map { "--" + $0.name }
        return Command(
            words: path.dropFirst().map { $0.configuration.name },
            subcommands: command.configuration.subcommands.filter { !$0.configuration.isHidden }.map { $0.configuration.name },
            ownOptions: command.arguments.filter { $0.kind != .positional }.map { $0.name },
            options: options + ["--help"])
    }

    static let internetAccess = ["none", "all", "nat64-only", "dhcpv6-pd-only", "unspecified"]

    /// What `tbrctl arguments…` prints, run in-process.
    static func tbrctl(_ arguments: [String]) async -> String {
        let console = CapturedConsole()
        let status = await TBRControlMain.main(arguments: arguments, console: console)
        #expect(status == 0, "tbrctl \(arguments): \(console.errorOutput)")
        return console.output
    }

    @Test func theManualPageDescribesEveryCommandAndOptionAndGroffReadsItWithoutAWarning() async throws {
        let page = await Self.tbrctl(["--generate-manual"])
        #expect(page.hasPrefix(".TH \"TBRCTL\" \"1\""))
        #expect(Self.commands.count > 40, "the tree has its commands")
        func roff(_ text: String) -> String { text.replacingOccurrences(of: "-", with: "\\-") }
        for command in Self.commands.dropFirst() {
            let heading = ".SS \"\(roff(command.words.joined(separator: " ")))\"\n"
            guard let start = page.range(of: heading) else {
                Issue.record("no section for 'tbrctl \(command.words.joined(separator: " "))'")
                continue
            }
            let section = page[start.upperBound...]
            let end = section.range(of: "\n.SS ")?.lowerBound ?? section.range(of: "\n.SH ")?.lowerBound ?? section.endIndex
            for option in command.ownOptions {
                #expect(section[..<end].contains("\\fB\\-\\-\(roff(option))\\fR"), "--\(option) of \(command.words)")
            }
        }
        let rootOptions = page.components(separatedBy: ".SH OPTIONS")[1].components(separatedBy: ".SH COMMANDS")[0]
        for option in Self.commands[0].options { #expect(rootOptions.contains(roff(option)), "\(option) at the root") }
        #expect(!page.contains("__complete"), "hidden commands stay out of the page")

        let groff = try await ProcessRunner.run("/usr/bin/groff", ["-man", "-ww", "-z", "-Tutf8"], stdin: page)
        #expect(groff.status == 0 && groff.stderr.isEmpty, "groff: \(groff.stderr)")
    }

    /// Every command's help, and the manual page as groff renders it, read cleanly: no backslash left
    /// in the text (a `\\` at the end of a line of a Swift string is a backslash, not a line continuation:
    /// 66 lines of nine commands' help once printed a stray `\ `).
    @Test func noHelpNorTheManualPageShowsAStrayBackslash() async throws {
        for command in Self.commands {
            let help = await Self.tbrctl(command.words + ["--help"])
            #expect(!help.isEmpty && !help.contains("\\"), "tbrctl \(command.words.joined(separator: " ")) --help: \(help)")
        }
        let page = await Self.tbrctl(["--generate-manual"])
        let text = try await ProcessRunner.run("/usr/bin/groff", ["-man", "-Tutf8", "-P-c", "-P-b", "-P-u"], stdin: page)
        #expect(text.status == 0 && text.stdout.contains("structure migrate"))
        let stray = text.stdout.split(separator: "\n").filter { $0.contains("\\") }
        #expect(stray.isEmpty, "the manual page shows a backslash: \(stray.prefix(5))")
    }

    /// The queries every shell answers: each command's words (its subcommands), `--` (its options), and
    /// the value of `--internet-access` and `--bus`. `@` at the end stands for the word being typed
    /// when it is empty.
    static func queries() -> [(line: [String], expected: [String], exact: Bool)] {
        var queries: [(line: [String], expected: [String], exact: Bool)] = []
        for command in commands {
            if !command.subcommands.isEmpty { queries.append((command.words + ["@"], command.subcommands, false)) }
            queries.append((command.words + ["--"], command.options, false))
        }
        let policy = commands.first { $0.ownOptions.contains("internet-access") }
        #expect(policy != nil, "a command takes --internet-access")
        if let policy { queries.append((policy.words + ["--internet-access", "@"], internetAccess, true)) }
        queries.append((["--bus", "@"], ["system", "session"], true))
        queries.append((["--json", "structure", "sh"], ["show"], true))
        return queries
    }

    /// Checks each answer (candidates separated by spaces, one line per query) against its query.
    static func check(_ output: String, shell: String) {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let queries = queries()
        #expect(lines.count >= queries.count, "\(shell) answered \(lines.count) of \(queries.count) queries")
        for (query, line) in zip(queries, lines) {
            let offered = Set(line.split(separator: " ").map(String.init))
            let missing = query.expected.filter { !offered.contains($0) }
            #expect(missing.isEmpty, "\(shell): 'tbrctl \(query.line.joined(separator: " "))' does not offer \(missing)")
            if query.exact { #expect(offered == Set(query.expected), "\(shell): \(query.line) offers \(offered.sorted())") }
        }
    }

    static func script(_ shell: String, in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent("tbrctl.\(shell)").path
        try Data(await tbrctl(["--generate-completion-script", shell]).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let bashDriver = #"""
        source "$1"
        while IFS= read -r line; do
            IFS=' ' read -r -a COMP_WORDS <<< "$line"
            for i in "${!COMP_WORDS[@]}"; do [[ ${COMP_WORDS[i]} == @ ]] && COMP_WORDS[i]=""; done
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMPREPLY=()
            _tbrctl
            echo "${COMPREPLY[*]}"
        done
        """#

    static let zshDriver = #"""
        # compadd as zsh's: options before --, the candidates after, those starting with the word typed.
        compadd() {
            while [[ $1 == -* && $1 != -- ]]; do shift; done
            [[ $1 == -- ]] && shift
            local w; for w in "$@"; do [[ $w == ${words[CURRENT]}* ]] && reply+=("$w"); done
        }
        _files() { reply+=("<files>") }
        compdef() { }
        source "$1"
        while IFS= read -r line; do
            words=(${(s: :)line})
            for i in {1..$#words}; do [[ ${words[i]} == @ ]] && words[i]=""; done
            CURRENT=$#words
            reply=()
            _tbrctl
            print -r -- "${reply[*]}"
        done
        """#

    static let fishDriver = #"""
        source $argv[1]
        while read -l line
            set -l offered (complete -C (string replace -r ' @$' ' ' -- $line) | string replace -r '\t.*' '')
            echo (string join ' ' -- $offered)
        end
        """#

    /// Runs `shell`'s driver over `lines` with the generated script; the binary completes itself.
    static func complete(_ shell: String, _ lines: [[String]], environment: [String: String] = [:]) async throws -> String {
        let directory = try TemporaryDirectory.make(prefix: "tbrctl-completion")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try await script(shell, in: directory)
        let driver = directory.appendingPathComponent("driver").path
        try Data([bashDriver, zshDriver, fishDriver][["bash", "zsh", "fish"].firstIndex(of: shell)!].utf8)
            .write(to: URL(fileURLWithPath: driver))
        let tbrctl = try TbrctlBinary().path
        // bash and zsh run the binary named by the first word; fish runs `tbrctl` from PATH.
        let first = shell == "fish" ? "tbrctl" : tbrctl
        let input = lines.map { ([first] + $0).joined(separator: " ") + "\n" }.joined()
        var environment = environment
        environment["PATH"] = URL(fileURLWithPath: tbrctl).deletingLastPathComponent().path + ":/usr/bin:/bin"
        // fish keeps history and variables under these; the test's own directory, not the user's.
        environment["XDG_CONFIG_HOME"] = directory.path
        environment["XDG_DATA_HOME"] = directory.path
        // fish starts tbrctl for every value it completes, some hundred times: 8 s alone, over a minute
        // with the whole suite on two cores. The bound is for a driver that hangs, not a speed.
        let result = try await ProcessRunner.run("/usr/bin/\(shell)", [driver, script], stdin: input, environment: environment, timeout: .seconds(600))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(shell): \(result.stderr)")
        return result.stdout
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func theShellCompletesEveryCommandOptionAndValue(shell: String) async throws {
        Self.check(try await Self.complete(shell, Self.queries().map(\.line)), shell: shell)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func routerIdsAndStructureNamesComeFromTheRunningTbrd(shell: String) async throws {
        try await withRig(["wpan0", "wpan1"], withTbrd: true) { rig throws in
            #expect(try await rig.run(["structure", "create", "Home"]).status == 0)
            #expect(try await rig.run(["structure", "create", "Cabin"]).status == 0)
            // The scripts ask tbrd on the default bus, the system bus: here, the rig's bus.
            let output = try await Self.complete(
                shell, [["info", "-d", "@"], ["structure", "show", "@"], ["matter", "nodes", "--structure", "Ca"]],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": rig.bus.address])
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map { Set($0.split(separator: " ").map(String.init)) }
            #expect(lines.count >= 3)
            #expect(lines.first == ["wpan0", "wpan1"], "\(shell): routers")
            #expect(lines.dropFirst().first == ["Home", "Cabin"], "\(shell): structures")
            #expect(lines.dropFirst(2).first == ["Cabin"], "\(shell): structures starting with Ca")
        }
    }

    @Test func theCompletionHelperIsHiddenAndQuietWithoutTbrd() async throws {
        try await withRig([]) { rig throws in
            let result = try await rig.run(["__complete", "routers"])
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        }
        let help = await Self.tbrctl(["--help"])
        #expect(!help.contains("__complete"))
        let console = CapturedConsole()
        #expect(await TBRControlMain.main(arguments: ["--generate-completion-script", "tcsh"], console: console) == 64)
        #expect(console.errorOutput.contains("bash, zsh, fish"))
    }
}
