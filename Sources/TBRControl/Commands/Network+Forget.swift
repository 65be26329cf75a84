import TBRCommandLine
import TBRFoundation

extension Network {
    /// `tbrctl network forget STRUCTURE (XPANID | --stale)`: networks out of the directory.
    struct Forget: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "forget",
            abstract: "Remove a network (or every stale one) from a structure's directory.",
            discussion: """
                The network's credentials are deleted from tbrd's state database. A network that one of \
                the structure's routers is on cannot be forgotten (exit 1, naming the routers). When the \
                preferred network is forgotten, the structure has none until one is chosen. Admins only.

                Exit status: 0; 1 an unknown structure or network, or a router is on it; 65 not an Extended \
                PAN ID; 69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .positional("xpanid", valueName: "XPANID", help: "The network's Extended PAN ID.", required: false),
            .flag("stale", help: "Forget every stale network of the structure instead."),
        ]

        let structure: String
        let xpanid: String?
        let stale: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            xpanid = values.string("xpanid")
            stale = values.flag("stale")
        }

        func validate() throws(UsageError) {
            switch (xpanid, stale) {
            case (nil, false): throw UsageError("give the network's Extended PAN ID, or --stale")
            case (.some, true): throw UsageError("give an Extended PAN ID or --stale, not both")
            default: break
            }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let forgotten = try await RouterSession.withTbrd(context, for: "the network directory") { tbrd in
                var targets: [String]
                if let xpanid { targets = [xpanid.lowercased()] } else { targets = try await tbrd.networks(of: structure).filter(\.stale).map(\.extPanId) }
                for xpan in targets { try await tbrd.removeNetwork(xpan, from: structure) }
                return targets
            }
            if context.json {
                try context.writeJSON(forgotten)
            } else if forgotten.isEmpty {
                context.write("\(Quoted(structure)) has no stale networks")
            } else {
                for xpan in forgotten { context.write("forgot \(xpan) of \(Quoted(structure))") }
            }
            return .success
        }
    }
}
