import MatterOnboarding
import TBRCommandLine
import TBRDBusAPI
import TBRFoundation

extension Matter {
    /// `tbrctl matter share NODE [--timeout SECONDS]`: opens a commissioning window on a node so that
    /// another controller can commission it too (multi-admin), and prints the codes for it.
    struct Share: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "share",
            abstract: "Open a commissioning window on a node for another controller; print its new codes.",
            discussion: """
                NODE is a node ID as 'tbrctl matter nodes' lists it (decimal, or hex with 0x). tbrd asks its \
                commissioner to open an enhanced commissioning window on the node for SECONDS (180 to 900, \
                default 300) and prints the new manual pairing code and QR code, which hold a fresh \
                passcode: give them to the other controller before the window closes. A node that cannot \
                be shared (not recorded, not reachable, without the administrator-commissioning cluster) \
                is refused with the reason.

                With --json: {nodeId, structure, windowSeconds, manualCode, qrCode}.

                Exit status: 0; 1 the node is unknown or the commissioner could not open the window; 64 a bad \
                NODE or SECONDS; 69 no tbrd, tbrd has no Matter commissioner or cannot reach it, or the node \
                does not support sharing (no administrator-commissioning cluster); 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("timeout", valueName: "SECONDS", help: "How long the window stays open: 180 to 900 (default 300)."),
            .positional("node", valueName: "NODE", help: "The node ID."),
        ]

        let node: NodeID
        let seconds: UInt16

        init(_ values: ParsedValues) throws(UsageError) {
            node = try values.required("node", MatterArguments.nodeID)
            seconds = try values.value("timeout") { (word) throws(ArgumentValueError) -> UInt16 in
                let range = TBRDBusAPI.Structure.shareWindowSeconds
                guard let s = UInt16(word), range.contains(s) else {
                    throw ArgumentValueError("a commissioning window lasts \(range.lowerBound) to \(range.upperBound) seconds")
                }
                return s
            } ?? TBRDBusAPI.Structure.defaultShareWindowSeconds
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let view = try await RouterSession.withTbrd(context, for: "'matter share'") { tbrd in
                let holder = try await tbrd.structureHolding(node)
                let codes = try await tbrd.shareMatterNode(at: holder.path, node: node.rawValue, seconds: seconds)
                return SharedNodeView(
                    nodeId: node.rawValue, structure: holder.name, windowSeconds: Int(seconds), manualCode: codes.manualCode, qrCode: codes.qrCode)
            }
            if context.json {
                try context.writeJSON(view)
            } else {
                context.write(
                    "Node \(view.nodeId) of \(Quoted(view.structure)) can be commissioned by another controller for \(view.windowSeconds) s:\n"
                        + TextTable.fields([("Manual code", view.manualCode), ("QR code", view.qrCode)]))
            }
            return .success
        }
    }
}

/// `tbrctl matter share`'s document.
struct SharedNodeView: Sendable, Hashable, Encodable {
    var nodeId: UInt64
    var structure: String
    var windowSeconds: Int
    var manualCode: String
    var qrCode: String
}
