import MeshCoP
import TBRCommandLine

extension Dataset {
    /// `tbrctl dataset new [--name N] [--channel C] [--panid P] [--extpanid X] [--mesh-local-prefix P]`:
    /// makes a complete Active dataset for a new network.
    struct New: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "new",
            abstract: "Create a complete Active dataset for a new network.",
            discussion: """
                Values not given are random (from OpenSSL's CSPRNG), as OpenThread's 'dataset init new' \
                makes them; the network key and PSKc are always random. Prints the dataset as hex TLVs, \
                secrets included: that is the point of the command.

                With --json it prints the decoded dataset and the hex, but the network key, the PSKc and \
                the hex (which contains them) are <redacted> unless --reveal-secrets is also given.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("name", valueName: "NAME", help: "Network name, 1 to 16 bytes of UTF-8 (default: OpenThread-<panid>)."),
            .option("channel", valueName: "CHANNEL", help: "Radio channel, 11 to 26 (default: random)."),
            .option("panid", valueName: "PANID", help: "PAN ID in hex, 0x0000 to 0xfffe (default: random)."),
            .option("extpanid", valueName: "XPANID", help: "Extended PAN ID, 16 hex digits (default: random)."),
            .option(
                "mesh-local-prefix", valueName: "PREFIX",
                help: "Mesh-local prefix in fd00::/8, as fd00:1234:5678:9abc::/64 or 16 hex digits (default: random)."),
            .revealSecrets,
        ]

        let name: NetworkName?
        let channel: Channel?
        let panID: PANID?
        let extendedPANID: ExtendedPANID?
        let meshLocalPrefix: MeshLocalPrefix?
        /// Whether `--json` output keeps the secrets.
        let revealSecrets: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            name = try values.value("name", ThreadArguments.networkName)
            channel = try values.value("channel", ThreadArguments.channel)
            panID = try values.value("panid", ThreadArguments.panID)
            extendedPANID = try values.value("extpanid", ThreadArguments.extendedPANID)
            meshLocalPrefix = try values.value("mesh-local-prefix", ThreadArguments.meshLocalPrefix)
            revealSecrets = values.flag(ArgumentSpec.revealSecrets.name)
        }

        /// The JSON output: the dataset, and its hex (redacted with the other secrets).
        struct Output: Encodable {
            var dataset: OperationalDataset
            var hex: String
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let dataset: OperationalDataset
            do {
                dataset = try OperationalDataset.random(
                    name: name, channel: channel, panID: panID, extendedPANID: extendedPANID,
                    meshLocalPrefix: meshLocalPrefix)
            } catch {
                throw ControlError.failure("cannot make random values: \(error)")
            }
            if context.json {
                let hex = revealSecrets ? dataset.hexString : Secrets.redacted
                try context.writeJSON(Output(dataset: dataset, hex: hex), revealSecrets: revealSecrets)
            } else {
                context.write(dataset.hexString)
            }
            return .success
        }
    }
}
