import TBRCommandLine

extension Network {
    /// `tbrctl network scan [-d ROUTER] [--duration MS]`: the energy on each channel, as one router hears it.
    struct Scan: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "scan",
            abstract: "Energy scan: the strongest energy a border router hears on each channel.",
            discussion: """
                Runs otbr-agent's EnergyScan: the radio listens on each channel of the agent's preferred \
                channel mask for --duration milliseconds (default 200, at most 65534) and reports the \
                strongest energy it heard, in dBm. While it listens the router is off its own channel, so \
                its mesh hears nothing from it for about 16 × the duration. The text form draws a bar per \
                channel: nothing at -100 dBm, one mark per 2 dB above. --json: {router, durationMs, status, \
                detail, channels: [{channel, maxRssi}]}, status "scanned" or "unsupported". A router on \
                another host (REST) has no energy scan: that is said ("unsupported"), never made up. \
                Admins only (through tbrd).

                Exit status: 0 scanned; 1 the agent failed, has no scan (unsupported) or the router is \
                unknown; 64 several routers and no -d, or a duration out of range; 69 the agent or tbrd \
                not reachable; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .router,
            .option("duration", valueName: "MS", help: "How long to listen on each channel, in milliseconds (1-65534, default 200)."),
        ]

        /// The default listening time per channel.
        static let defaultDurationMs = 200

        let router: String?
        let durationMs: Int

        init(_ values: ParsedValues) throws(UsageError) {
            router = values.string(ArgumentSpec.router.name)
            durationMs = try Self.duration(values)
        }

        /// `--duration` checked: 1 to 65534 ms (otbr-agent refuses 65535 and more).
        static func duration(_ values: ParsedValues) throws(UsageError) -> Int {
            try values.value("duration") { (text) throws(ArgumentValueError) -> Int in
                guard let ms = Int(text), (1...65_534).contains(ms) else {
                    throw ArgumentValueError("the duration is 1 to 65534 milliseconds per channel")
                }
                return ms
            } ?? defaultDurationMs
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let duration = Duration.milliseconds(durationMs)
            let view = try await RouterSession.withBackend(context) { backend in
                let ref = try await backend.resolve(router)
                do {
                    let readings = try await backend.energyScan(on: ref, duration: duration)
                    return EnergyScanView(router: ref.id, durationMs: durationMs, status: .scanned, detail: "", channels: readings)
                } catch let e as EnergyScanUnsupported {
                    return EnergyScanView(router: ref.id, durationMs: durationMs, status: .unsupported, detail: e.reason, channels: [])
                }
            }
            guard context.json else {
                guard view.status == .scanned else { throw ControlError.failure(view.render()) }
                context.write(view.render())
                return .success
            }
            try context.writeJSON(view)
            return view.status == .scanned ? .success : .failure
        }
    }
}
