import MeshCoP
import TBRCommandLine

extension EPSKc {
    /// `tbrctl epskc check KEY`: says whether a key is a well-formed ePSKc (exit 0) or why not (65).
    struct Check: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "check",
            abstract: "Check that a key is 9 digits with a valid Verhoeff check digit.",
            discussion: """
                Catches a mistyped key before it is used: exits 0 for a well-formed ePSKc, and 65 with the \
                reason (wrong length, not a digit, check digit mismatch) otherwise.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("key", valueName: "KEY", help: "The ePSKc to check, 9 digits."),
        ]

        /// The key as given.
        let key: String

        init(_ values: ParsedValues) throws(UsageError) {
            key = try values.required("key")
        }

        /// The JSON output.
        struct Output: Encodable {
            var valid: Bool
            /// Why the key is not valid; absent when it is.
            var reason: String?
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            var reason: String?
            do {
                _ = try EphemeralKey(validating: key)
            } catch {
                reason = error.description
            }
            if context.json {
                try context.writeJSON(Output(valid: reason == nil, reason: reason))
                return reason == nil ? .success : .dataError
            }
            if let reason { throw ControlError.dataError("not a valid ePSKc: \(reason)") }
            context.write("valid ePSKc")
            return .success
        }
    }
}
