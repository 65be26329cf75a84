import TBRDocuments
import TBRCommandLine

extension EPSKc {
    /// `tbrctl epskc activate [-d ROUTER] [--duration SECONDS]`: starts an ephemeral key on a border
    /// router and prints it.
    struct Activate: BlockingControlCommand {
        static let configuration = CommandConfiguration(
            name: "activate",
            abstract: "Start an ePSKc on a border router and print it.",
            discussion: """
                Asks the router for an ephemeral key that a commissioner can use once, for the given \
                duration, and prints the key: that is the point of the command. Exits 0 when the key is \
                active, 75 when a key is already active (busy), and 1 for any other status (not \
                supported, invalid state, failed); with --json the status is printed in every case.
                """)
        static let arguments: [ArgumentSpec] = [
            .router,
            .option("duration", valueName: "SECONDS", help: "How long the key is valid, 1 to 600 seconds.", default: "120"),
        ]

        /// `-d`: the router as given.
        let router: String?
        /// The requested duration.
        let seconds: Int

        init(_ values: ParsedValues) throws(UsageError) {
            router = values.string(ArgumentSpec.router.name)
            seconds = try values.required("duration") { (word) throws(ArgumentValueError) -> Int in
                guard let n = Int(word), (1...600).contains(n) else {
                    throw ArgumentValueError("an ePSKc duration is a number of seconds from 1 to 600")
                }
                return n
            }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let (id, result) = try await RouterSession.withBackend(context) { backend in
                let ref = try await backend.resolve(router)
                return (ref.id, try await backend.activateEpskc(on: ref, seconds: seconds))
            }
            return try report(result, on: id, in: context)
        }

        /// Through tbrd, on the calling thread (``BlockingTbrd``); nil when tbrd is not on the bus or
        /// `-d` needs a lookup.
        func runBlocking(in context: CommandContext) throws -> ExitCode? {
            guard let (ref, result) = try BlockingTbrd.perform(.activateEpskc(seconds: seconds), on: router, context)
            else { return nil }
            return try report(result, on: ref.id, in: context)
        }

        /// Prints `result` of router `id` (the key in text, the whole result in JSON) and says how it went.
        /// - Throws: ``ControlError`` 75 for `busy`, 1 for another status that is not `success`.
        private func report(_ result: EpskcActivation, on id: String, in context: CommandContext) throws -> ExitCode {
            let status = ErrorMapping.exitCode(activationStatus: result.status)
            if context.json {
                try context.writeJSON(result)
            } else if let key = result.epskc, status == .success {
                context.write("ePSKc \(key) is active on \(id) for \(result.validDurationSeconds) s")
            }
            if status != .success {
                throw ControlError(exitCode: status, message: result.message ?? "ActivateEpskcMode on \(id): \(result.status)")
            }
            return .success
        }
    }
}
