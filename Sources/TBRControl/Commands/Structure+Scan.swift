import TBRCommandLine

extension Structure {
    /// `tbrctl structure scan STRUCTURE [--duration MS]`: an energy scan on every router of a structure.
    struct Scan: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "scan",
            abstract: "Energy scan on every border router of a structure, combined per channel.",
            discussion: """
                Runs 'tbrctl network scan' on each router of the structure, one after the other (a router \
                that scans is off its own channel meanwhile; one at a time keeps the rest of the mesh \
                heard). Per channel it shows the strongest energy any router heard and which router heard \
                it; a channel is shown only where every scanned router read it. Routers that cannot scan \
                (REST: "unsupported"), are offline or fail are listed with the reason. --json: {structure, \
                durationMs, channels: [{channel, maxRssi, routers: {ROUTER: dBm}, loudestAt}], \
                routers: [{router, status, detail}]}. Admins only.

                Exit status: 0 at least one router scanned; 1 none could, or an unknown structure; 64 a \
                duration out of range; 69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .option("duration", valueName: "MS", help: "How long to listen on each channel, in milliseconds (1-65534, default 200)."),
        ]

        let structure: String
        let durationMs: Int

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            durationMs = try Network.Scan.duration(values)
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let view = try await RouterSession.withTbrd(context, for: "scanning a structure") { tbrd in
                try await Self.scan(structure, durationMs: durationMs, with: tbrd)
            }
            if context.json { try context.writeJSON(view) } else { context.write(view.render()) }
            return view.anyScanned ? .success : .failure
        }

        /// Scans each router of `structure` in turn.
        static func scan(_ structure: String, durationMs: Int, with tbrd: TbrdBackend) async throws -> StructureScanView {
            let info = try await tbrd.structure(named: structure)
            var scans: [(router: String, result: Result<[EnergyReading], any Error>)] = []
            for id in info.routers {
                do {
                    let ref = try await tbrd.resolve(id)
                    scans.append((id, .success(try await tbrd.energyScan(on: ref, duration: .milliseconds(durationMs)))))
                } catch let e as TbrdNotRunning {
                    throw e
                } catch {
                    scans.append((id, .failure(error)))
                }
            }
            return StructureScanView(structure: info.name, durationMs: durationMs, scans: scans)
        }
    }
}
