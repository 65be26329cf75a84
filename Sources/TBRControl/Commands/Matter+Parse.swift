import MatterOnboarding
import TBRCommandLine

extension Matter {
    /// `tbrctl matter parse CODE [--reveal-secrets]`: decodes a QR code or manual pairing code and
    /// checks it against the specification (exit 0), or says what is wrong and which rule (65).
    struct Parse: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "parse",
            abstract: "Decode and check a Matter QR code (MT:…) or manual pairing code.",
            discussion: """
                Shows the vendor and product IDs, the commissioning flow, the discovery capabilities, the \
                discriminator, the optional data of a QR code (serial number, vendor elements) and the \
                equivalent manual code. The setup passcode and the manual code are <redacted> unless \
                --reveal-secrets is given.

                A manual code may contain spaces and dashes (3497-011-2332). A code that cannot be decoded, \
                or that breaks a rule of the Matter specification (passcode, discriminator, version, flow, \
                discovery capabilities), exits 65 naming the rule. A reserved vendor ID (above 0xFFF4) or a \
                zero product ID is shown with a warning on standard error. Several payloads joined with '*' \
                are refused: give one device's code at a time.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional(
                "code", valueName: "CODE",
                help: "The QR code payload (MT:…) or the manual pairing code (11 or 21 digits)."),
            .revealSecrets,
        ]

        /// The code as given.
        let code: String
        /// Whether to print the passcode and the manual code.
        let revealSecrets: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            code = try values.required("code")
            revealSecrets = values.flag(ArgumentSpec.revealSecrets.name)
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let payload: SetupPayload
            let manualCode: String
            do {
                payload = try SetupPayload(parsing: code)
                manualCode = try payload.manualCode()
            } catch {
                throw ControlError.dataError(error.description)
            }
            for warning in payload.warnings { context.note("warning: the payload \(warning)") }
            let report = MatterPayloadReport(payload: payload, kind: PayloadKind(detecting: code), manualCode: manualCode)
            if context.json {
                try context.writeJSON(report, revealSecrets: revealSecrets)
            } else {
                context.write(report.render(revealSecrets: revealSecrets))
            }
            return .success
        }
    }
}
