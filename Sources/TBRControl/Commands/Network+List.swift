import BorderRouterService
import TBRCommandLine
import TBRDBusAPI
import TBRDocuments
import TBRFoundation

extension Network {
    /// `tbrctl network list [--structure STRUCTURE] [--stale]`: the network directory of structures.
    struct List: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "list",
            abstract: "List the Thread networks each structure knows (its network directory).",
            discussion: """
                Every network a structure knows: from its routers' active datasets, from 'network fetch \
                --structure' and 'network add', and from other border agents' _meshcop._udp records (seen, \
                credentials not held). For each: where it came from, when it was last seen, which of the \
                structure's routers are on it, whether tbrd holds its credentials, and whether it is the \
                structure's preferred network (*) or stale (no router of the structure on it, and not shown \
                by mDNS for network-stale-after days, tbrd.conf). Needs tbrd.

                With --json: an array of {structure, extPanId, networkName, channel, activeTimestamp, source, \
                sourceDetail, lastSeen, routers, credentials, preferred, stale}. No secret is ever shown here \
                ('network export' gives the credentials).

                Exit status: 0; 1 an unknown structure; 69 no tbrd.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("structure", valueName: "STRUCTURE", help: "Only this structure's networks."),
            .flag("stale", help: "Only the stale networks."),
        ]

        let structure: String?
        let staleOnly: Bool

        init(_ values: ParsedValues) {
            structure = values.string("structure")
            staleOnly = values.flag("stale")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let entries = try await RouterSession.withTbrd(context, for: "the network directory") { tbrd in
                var names: [String]
                if let structure { names = [structure] } else { names = try await tbrd.structureEntries().map(\.name) }
                var all: [NetworkEntry] = []
                for name in names {
                    all += try await tbrd.networks(of: name).map { NetworkEntry(structure: name, $0) }
                }
                return all
            }
            let shown = entries.filter { !staleOnly || $0.stale }
            if context.json {
                try context.writeJSON(shown)
            } else if shown.isEmpty {
                context.write(staleOnly ? "no stale networks" : "no networks known (no structure has routers or fetched networks yet)")
            } else {
                context.write(Self.render(shown))
            }
            return .success
        }

        static func render(_ entries: [NetworkEntry]) -> String {
            TextTable.render(
                header: ["STRUCTURE", "", "NETWORK", "EXTENDED PAN ID", "CHANNEL", "CREDENTIALS", "ROUTERS", "SOURCE", "LAST SEEN", "STATE"],
                rows: entries.map { e in
                    [
                        e.structure, e.preferred ? "*" : "", e.networkName.isEmpty ? "-" : e.networkName, e.extPanId,
                        e.channel.map(String.init) ?? "-", e.credentials ? "held" : "no", e.routers.isEmpty ? "-" : e.routers.joined(separator: ","),
                        e.sourceDetail.isEmpty ? e.source : "\(e.source) \(e.sourceDetail)", e.lastSeen.description,
                        e.stale ? "stale" : e.preferred ? "preferred" : "-",
                    ]
                })
        }
    }
}
