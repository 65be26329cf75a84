import TBRDocuments
import DBus
import Synchronization
import TBRCommandLine
import TBRFoundation

extension Structure {
    /// `tbrctl structure policy STRUCTURE [--internet-access OPTION [--no-wait] [--timeout SECONDS]]`:
    /// shows or sets a structure's internet-access policy and its state on each border router.
    struct Policy: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "policy",
            abstract: "Show or set a structure's internet-access policy and its state on each border router.",
            discussion: """
                Without --internet-access: prints the option and, per border router, its state: applied, \
                pending (the router is offline, or applying is in progress), failed (the detail says what \
                failed; tbrd retries) or unsupported (the detail says what the router lacks).

                With --internet-access: tbrd stores the option, then applies it to every router of the \
                structure (NAT64, DHCPv6-PD and its host firewall, docs/operations.md), also when it is the \
                option the structure already has (run it again after mending a router). tbrctl waits until \
                every online router is applied, failed or unsupported (offline routers stay pending and \
                are applied when they return), then prints the table. unspecified means tbrd stops \
                managing the structure: it removes its firewall rules and leaves NAT64 and DHCPv6-PD as \
                they are.

                With --json: {structure, internetAccessOption, routers: [{id, state, detail}]}, the option \
                spelled as on D-Bus (none, all, nat64Only, dhcpv6PdOnly, unspecified).

                Exit status: 0 every online router applied (or only shown, or --no-wait); 1 a router \
                failed or is unsupported; 75 --timeout ran out first; 69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .option(
                "internet-access", valueName: "none|all|nat64-only|dhcpv6-pd-only|unspecified",
                help: "Set the structure's internet access (then wait until its routers have applied it)."),
            .flag("no-wait", help: "Set it and print the state now, without waiting."),
            .option("timeout", valueName: "SECONDS", help: "Wait at most SECONDS (default 30), then exit 75."),
        ]

        /// The command-line spellings of the options and their D-Bus spellings.
        static let options: [(word: String, busName: String)] = [
            ("none", "none"), ("all", "all"), ("nat64-only", "nat64Only"), ("dhcpv6-pd-only", "dhcpv6PdOnly"),
            ("unspecified", "unspecified"),
        ]

        /// How long to wait without `--timeout`.
        static let defaultTimeout = 30.0

        /// The structure's name.
        let structure: String
        /// The option to set (its D-Bus spelling); nil only shows.
        let option: String?
        /// `--no-wait`.
        let noWait: Bool
        /// How long to wait, in seconds.
        let timeout: Double

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            option = try values.value("internet-access") { (word) throws(ArgumentValueError) -> String in
                guard let found = Self.options.first(where: { $0.word == word }) else {
                    throw ArgumentValueError("the internet access is one of \(Self.options.map(\.word).joined(separator: ", "))")
                }
                return found.busName
            }
            noWait = values.flag("no-wait")
            let timeout = try values.value("timeout") { (word) throws(ArgumentValueError) -> Double in
                guard let s = Double(word), s > 0, s <= 86_400 else {
                    throw ArgumentValueError("a timeout is a number of seconds above 0, such as 30 or 0.5")
                }
                return s
            }
            if option == nil, noWait || timeout != nil {
                throw UsageError("--no-wait and --timeout go with --internet-access")
            }
            if noWait, timeout != nil { throw UsageError("--no-wait and --timeout cannot be combined") }
            self.timeout = timeout ?? Self.defaultTimeout
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let limit = Duration.milliseconds(Int64(timeout * 1000))
            let (view, finished) = try await RouterSession.withTbrd(context, for: "'structure policy'") { tbrd in
                let path = try await tbrd.structurePath(structure)
                guard let option else { return (try await tbrd.policy(of: structure, at: path), true) }
                try await tbrd.setInternetAccessOption(option, structure: structure, at: path)
                if noWait { return (try await tbrd.policy(of: structure, at: path), true) }
                return try await Self.waitUntilSettled(tbrd, structure: structure, at: path, within: limit, clock: context.clock)
            }
            if context.json { try context.writeJSON(view) } else { context.write(view.render()) }
            guard option != nil, !noWait else { return .success }
            guard finished else {
                throw ControlError.temporaryFailure(
                    "not every online border router of \(Quoted(structure)) applied the policy within \(Self.seconds(timeout)) s (--timeout)")
            }
            let code = ErrorMapping.exitCode(policyStates: view.routers.map(\.state))
            if code != .success {
                let problems = view.routers.filter { $0.state == .failed || $0.state == .unsupported }.map { "\($0.id) \($0.state.rawValue)" }
                context.note("the policy does not hold on every border router: \(problems.joined(separator: ", "))")
            }
            return code
        }

        /// Reads the policy until every online router is applied, failed or unsupported (true), or
        /// `limit` passes (false, with the last reading; the wait is cut off even if tbrd is slow to answer).
        static func waitUntilSettled(
            _ tbrd: TbrdBackend, structure: String, at path: ObjectPath, within limit: Duration, clock: any TBRClock
        ) async throws -> (PolicyView, Bool) {
            let last = Locked<PolicyView?>(nil)
            let outcome = try await TimeLimit.run(limit, clock: clock) {
                while true {
                    let view = try await tbrd.policy(of: structure, at: path)
                    last.withLock { $0 = view }
                    var settled = true
                    for row in view.routers where row.state == .pending {
                        if try await tbrd.isOnline(row.id) { settled = false }
                    }
                    if settled { return view }
                    try await clock.sleep(for: .milliseconds(100))
                }
            }
            switch outcome {
            case .finished(let view): return (view, true)
            case .timedOut:
                let view = last.withLock { $0 } ?? PolicyView(structure: structure, internetAccessOption: "", routers: [])
                return (view, false)
            }
        }

        private static func seconds(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }
}
