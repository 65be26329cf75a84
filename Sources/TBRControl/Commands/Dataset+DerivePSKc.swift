import MeshCoP
import TBRCommandLine
import TBRFoundation

extension Dataset {
    /// `tbrctl dataset pskc --passphrase P --name N --xpanid X`: derives the PSKc from the
    /// commissioning passphrase, as Thread commissioners do.
    struct DerivePSKc: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "pskc",
            abstract: "Derive the PSKc from a commissioning passphrase.",
            discussion: """
                Computes PBKDF2 with AES-CMAC-PRF-128 over the passphrase, salted with the extended PAN ID \
                and the network name (Thread 1.4 section 8.4.1.2.2), and prints the 32 hex digits. The \
                PSKc is the point of the command, so it is printed as it is. Give '--passphrase -' to read \
                the passphrase from standard input instead of the command line, where other users may see it.
                """)
        static let arguments: [ArgumentSpec] = [
            .option(
                "passphrase", valueName: "PASSPHRASE", help: "The commissioning passphrase, 6 to 255 bytes, or -.",
                required: true),
            .option("name", valueName: "NAME", help: "The network name, 1 to 16 bytes of UTF-8.", required: true),
            .option("xpanid", valueName: "XPANID", help: "The extended PAN ID, 16 hex digits.", required: true),
        ]

        /// The passphrase as given, or `-` for standard input.
        let passphrase: String
        /// The network name.
        let networkName: NetworkName
        /// The extended PAN ID.
        let extendedPANID: ExtendedPANID

        init(_ values: ParsedValues) throws(UsageError) {
            passphrase = try values.required("passphrase")
            networkName = try values.required("name", ThreadArguments.networkName)
            extendedPANID = try values.required("xpanid", ThreadArguments.extendedPANID)
        }

        func validate() throws(UsageError) {
            let length = passphrase.utf8.count
            if passphrase != "-", !PSKc.passphraseLengths.contains(length) {
                throw UsageError("the passphrase must be 6 to 255 bytes long; it has \(length)")
            }
        }

        /// The JSON output.
        struct Output: Encodable {
            /// The PSKc as 32 hex digits.
            var pskc: String
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            var passphrase = passphrase
            if passphrase == "-" {
                // At most 255 bytes and a line break: anything longer cannot be a passphrase.
                do {
                    passphrase = String(decoding: try context.console.readStandardInput(limit: 257), as: UTF8.self)
                } catch is FileDescriptorIO.InputTooLong {
                    throw ControlError.dataError("standard input holds more than 257 bytes: a passphrase is 6 to 255 bytes long")
                }
                while passphrase.last?.isNewline == true { passphrase.removeLast() }
            }
            let pskc: PSKc
            do {
                pskc = try PSKc.derive(passphrase: passphrase, networkName: networkName, extendedPANID: extendedPANID)
            } catch {
                switch error {
                case .passphraseLength: throw ControlError.dataError(error.description)
                case .crypto: throw ControlError.failure(error.description)
                }
            }
            if context.json {
                try context.writeJSON(Output(pskc: pskc.hexString))
            } else {
                context.write(pskc.hexString)
            }
            return .success
        }
    }
}
