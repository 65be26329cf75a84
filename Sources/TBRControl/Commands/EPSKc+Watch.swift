import TBRCommandLine
import TBRFoundation

extension EPSKc {
    /// `tbrctl epskc watch [-d ROUTER] [--once] [--since SEQ] [--timeout SECONDS]`: prints ePSKc
    /// sessions starting and ending, one line each, as they happen.
    struct Watch: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "watch",
            abstract: "Print ePSKc sessions starting and ending, as they happen (JSON Lines with --json).",
            discussion: """
                Prints one line per event and flushes it at once, so a script can read it through a pipe \
                or a file. With --json each line is a JSON object: event (epskcModeActivated or \
                epskcModeDeactivated), sequence, router, reason and detail (ends only), activatedAt and \
                deactivatedAt (ISO 8601, UTC). Without -d every router is watched.

                With tbrd nothing is missed: --since SEQ first replays the events journalled after \
                sequence SEQ, then follows live ones without gaps or repeats, even across a restart of \
                tbrd. Without tbrd, only keys this process can notice are reported (said on standard \
                error), and --since is refused (69).

                Exit status: 0 after the first deactivation with --once, 75 when --timeout runs out, 69 \
                when tbrd or the bus goes away for good.
                """)
        static let arguments: [ArgumentSpec] = [
            .router,
            .flag("once", help: "Exit 0 after the first deactivation."),
            .option("since", valueName: "SEQ", help: "First replay the journalled events after sequence SEQ (needs tbrd)."),
            .option("timeout", valueName: "SECONDS", help: "Give up after SECONDS and exit 75."),
        ]

        /// `-d`: the router as given; nil watches every router.
        let router: String?
        /// `--once`.
        let once: Bool
        /// `--since`.
        let since: UInt64?
        /// `--timeout`, in seconds.
        let timeout: Double?

        init(_ values: ParsedValues) throws(UsageError) {
            router = values.string(ArgumentSpec.router.name)
            once = values.flag("once")
            since = try values.value("since") { (word) throws(ArgumentValueError) -> UInt64 in
                guard let n = UInt64(word) else { throw ArgumentValueError("a sequence number is a whole number from 0") }
                return n
            }
            timeout = try values.value("timeout") { (word) throws(ArgumentValueError) -> Double in
                guard let s = Double(word), s > 0, s <= 31_536_000 else {
                    throw ArgumentValueError("a timeout is a number of seconds above 0, such as 30 or 0.5")
                }
                return s
            }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let limit = timeout.map { Duration.milliseconds(Int64($0 * 1000)) }
            let outcome = try await TimeLimit.run(optionally: limit, clock: context.clock) {
                try await watch(context)
            }
            switch outcome {
            case .finished(true):
                return .success
            case .finished(false):
                throw ControlError.unavailable("the ePSKc events ended: the connection to the bus was lost")
            case .timedOut:
                let limit = Self.seconds(timeout ?? 0)
                throw ControlError.temporaryFailure(
                    once ? "no ePSKc session ended within \(limit) s (--timeout)" : "stopped watching after \(limit) s (--timeout)")
            }
        }

        /// Follows the events until `--once` is satisfied (true) or they end (false).
        private func watch(_ context: CommandContext) async throws -> Bool {
            try await RouterSession.withBackend(context) { backend in
                var ref: RouterRef?
                if let router { ref = try await backend.resolve(router) }
                var satisfied = false
                try await backend.watchEpskc(router: ref, since: since, notes: context) { event in
                    if context.json { try context.writeJSONLine(event) } else { context.write(event.render()) }
                    if once, event.isDeactivation {
                        satisfied = true
                        return false
                    }
                    return true
                }
                return satisfied
            }
        }

        private static func seconds(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }
}
