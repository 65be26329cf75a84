import TBRCommandLine
import TBRDocuments

/// `tbrctl mesh [-d ROUTER] [--format text|json|dot]`: the Thread mesh around one border router.
struct Mesh: ControlCommand {
    static let configuration = CommandConfiguration(
        name: "mesh",
        abstract: "Show the Thread mesh around a border router: partition, network data, routers and children.",
        discussion: """
            Reads the router's neighbour and child tables, leader data and network data fresh from its \
            otbr-agent (within 5 s) and shows the router itself, every router and child it hears directly \
            (link quality in, age, a child's mode and timeout) and the on-mesh prefixes, the OMR prefix \
            marked, and external routes. A node that left is gone as soon as the agent's tables say so. \
            A router on another host (REST) is read through its agent's network diagnostics instead, which \
            reach beyond the first hop (routers with their links, and their children).

            --format text (default) prints a tree; json the same as --json: {router, partitionId, \
            leaderRouterId, networkData: {onMeshPrefixes, externalRoutes}, nodes: [{extAddress, rloc16, role, \
            routerId, source, linkQualityIn, linkQualityOut, age, mode, timeout, parent, links}]}; dot a \
            Graphviz graph: tbrctl mesh --format dot | dot -Tsvg > mesh.svg.

            Exit status: 0 shown; 1 the agent failed or the router is unknown; 64 several routers and no -d, \
            or --json with --format text or dot; 69 the agent or tbrd not reachable.
            """)
    static let arguments: [ArgumentSpec] = [
        .router,
        .option("format", valueName: "text|json|dot", help: "Output format (default text; json is the same as --json)."),
    ]

    /// The output formats.
    enum Format: String, CaseIterable {
        case text, json, dot
    }

    /// `-d`: the router as given.
    let router: String?
    /// `--format`; nil when not given.
    let format: Format?

    init(_ values: ParsedValues) throws(UsageError) {
        router = values.string(ArgumentSpec.router.name)
        format = try values.value("format") { (word) throws(ArgumentValueError) -> Format in
            guard let f = Format(rawValue: word) else { throw ArgumentValueError("the format is text, json or dot") }
            return f
        }
    }

    func run(in context: CommandContext) async throws -> ExitCode {
        let format = format ?? (context.json ? .json : .text)
        if context.json, format != .json { throw UsageError("--json and --format \(format.rawValue) cannot be combined") }
        let view = try await RouterSession.withBackend(context) { backend in
            let ref = try await backend.resolve(router)
            return MeshView(router: ref.id, topology: try await backend.meshTopology(of: ref))
        }
        switch format {
        case .json: try context.writeJSON(view)
        case .text: context.write(view.render())
        case .dot: context.write(view.dot())
        }
        return .success
    }
}
