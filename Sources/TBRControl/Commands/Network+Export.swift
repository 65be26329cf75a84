import MeshCoP
import TBRCommandLine
import TBRFoundation

extension Network {
    /// `tbrctl network export STRUCTURE [XPANID] [--format hex|json]`: a network's credentials.
    struct Export: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "export",
            abstract: "Print the credentials of a network of a structure's directory.",
            discussion: """
                For a phone or another controller: the Active dataset tbrd holds, as hex TLVs the way \
                'ot-ctl dataset active -x' prints them (--format hex, the default), or as the JSON of \
                'dataset decode --json' with the secrets shown (--format json). Without XPANID: the \
                structure's preferred network. This prints the network key: anyone who has it can join and \
                read the network. Admins only.

                Exit status: 0; 1 an unknown structure or network, or no credentials held; 65 not an \
                Extended PAN ID; 69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .positional("xpanid", valueName: "XPANID", help: "The network's Extended PAN ID (default: the preferred one).", required: false),
            .option("format", valueName: "hex|json", help: "hex TLVs or JSON.", default: "hex"),
        ]

        let structure: String
        let xpanid: String?
        let json: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            xpanid = values.string("xpanid")
            let format = values.string("format") ?? "hex"
            guard format == "hex" || format == "json" else { throw UsageError("--format is hex or json, not \(Quoted(format))") }
            json = format == "json"
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let tlvs = try await RouterSession.withTbrd(context, for: "the network directory") { tbrd in
                var xpan = xpanid?.lowercased()
                if xpan == nil {
                    xpan = try await tbrd.networks(of: structure).first(where: \.preferred)?.extPanId
                }
                guard let xpan else {
                    throw ControlError.failure("\(Quoted(structure)) has no preferred network; name one: 'tbrctl network export \(structure) XPANID'")
                }
                return try await tbrd.networkDataset(xpan, of: structure)
            }
            if json || context.json {
                let dataset: OperationalDataset
                do { dataset = try OperationalDataset(bytes: tlvs) } catch { throw ControlError.dataError("the stored dataset does not decode: \(error)") }
                try context.writeJSON(dataset, revealSecrets: true)
            } else {
                context.write(Hex.encode(tlvs))
            }
            return .success
        }
    }
}
