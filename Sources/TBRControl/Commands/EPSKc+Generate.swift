import MeshCoP
import TBRCommandLine

extension EPSKc {
    /// `tbrctl epskc generate`: prints a fresh ephemeral key.
    struct Generate: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "generate",
            abstract: "Print a new random 9-digit ePSKc.",
            discussion: """
                Eight random digits from OpenSSL's CSPRNG and a Verhoeff check digit, the form Thread 1.4 \
                border routers accept. The key is printed as it is: that is the point of the command.
                """)

        init(_ values: ParsedValues) {}

        /// The JSON output.
        struct Output: Encodable {
            /// The 9 digits.
            var epskc: String
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let key: EphemeralKey
            do {
                key = try EphemeralKey.generate()
            } catch {
                throw ControlError.failure("cannot make a random key: \(error)")
            }
            if context.json {
                try context.writeJSON(Output(epskc: key.digits))
            } else {
                context.write(key.digits)
            }
            return .success
        }
    }
}
