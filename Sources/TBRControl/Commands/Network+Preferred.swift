import TBRCommandLine
import TBRFoundation

extension Network {
    /// `tbrctl network preferred STRUCTURE XPANID`: the structure's preferred network.
    struct Preferred: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "preferred",
            abstract: "Choose a structure's preferred Thread network (its default network).",
            discussion: """
                The network must be in the structure's directory ('tbrctl network list'). It replaces the \
                structure's default network (Structure1.DefaultThreadNetworkId, the same setting; a default \
                set before this release is the preferred network now). Matter commissioning uses it. \
                Admins only.

                Exit status: 0; 1 an unknown structure or a network the structure does not know; 65 not an \
                Extended PAN ID; 69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .positional("xpanid", valueName: "XPANID", help: "The network's Extended PAN ID (16 hex digits)."),
        ]

        let structure: String
        let xpanid: String

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            xpanid = try values.required("xpanid")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            try await RouterSession.withTbrd(context, for: "choosing a preferred network") { tbrd in
                try await tbrd.setPreferredNetwork(xpanid.lowercased(), of: structure)
            }
            if context.json {
                try context.writeJSON(["structure": structure, "preferredNetwork": xpanid.lowercased()])
            } else {
                context.write("\(xpanid.lowercased()) is the preferred network of \(Quoted(structure))")
            }
            return .success
        }
    }
}
