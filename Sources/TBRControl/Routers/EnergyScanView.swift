/// How one router's energy scan went, as `tbrctl network scan` and `structure scan` print it.
enum ScanStatus: String, Sendable, Hashable, Encodable {
    /// It scanned.
    case scanned
    /// Its agent has no energy scan (otbr-agent's REST API).
    case unsupported
    /// Its agent is not reachable (`structure scan` only).
    case offline
    /// The scan failed.
    case failed
}

/// One channel's reading of an energy scan: the strongest energy heard, in dBm.
struct EnergyReading: Sendable, Hashable, Encodable {
    var channel: Int
    var maxRssi: Int
}

/// A router whose agent has no energy scan (otbr-agent's REST API offers none): said, never made up.
struct EnergyScanUnsupported: Error, Sendable, CustomStringConvertible {
    var router: String
    var reason: String
    var description: String { "\(router): unsupported: \(reason)" }
}

/// What `tbrctl network scan` prints: `{"router", "durationMs", "status", "detail", "channels": [{"channel", "maxRssi"}]}`,
/// `status` `scanned` or `unsupported`.
struct EnergyScanView: Sendable, Hashable, Encodable {
    var router: String
    var durationMs: Int
    var status: ScanStatus
    var detail: String
    var channels: [EnergyReading]

    /// One line per channel with a bar as long as the energy is strong (nothing at -100 dBm, 40 marks at -20).
    func render() -> String {
        guard status == .scanned else { return "\(router): \(status.rawValue): \(detail)" }
        return EnergyBars.table(channels.map { ($0.channel, $0.maxRssi, nil) })
    }
}

/// What `tbrctl structure scan` prints: the strongest energy per channel over the structure's routers,
/// each router's own reading, and how each router's scan went.
struct StructureScanView: Sendable, Hashable, Encodable {
    /// One channel over the structure.
    struct Channel: Sendable, Hashable, Encodable {
        var channel: Int
        /// The strongest energy any router heard on it.
        var maxRssi: Int
        /// Each scanned router's reading.
        var routers: [String: Int]
        /// The router that heard ``maxRssi``.
        var loudestAt: String
    }

    /// How one router's scan went: `scanned`, `unsupported` (no scan on that agent), `failed` or `offline`.
    struct RouterScan: Sendable, Hashable, Encodable {
        var router: String
        var status: ScanStatus
        var detail: String
    }

    var structure: String
    var durationMs: Int
    var channels: [Channel]
    var routers: [RouterScan]

    /// Combines the routers' readings: per channel, the strongest; a channel counts only where every
    /// scanned router read it (routers scan their own preferred mask).
    init(structure: String, durationMs: Int, scans: [(router: String, result: Result<[EnergyReading], any Error>)]) {
        self.structure = structure
        self.durationMs = durationMs
        var perChannel: [Int: [String: Int]] = [:]
        var routers: [RouterScan] = []
        var scanned = 0
        for scan in scans {
            switch scan.result {
            case .success(let readings):
                scanned += 1
                for r in readings { perChannel[r.channel, default: [:]][scan.router] = r.maxRssi }
                routers.append(RouterScan(router: scan.router, status: .scanned, detail: ""))
            case .failure(let e as EnergyScanUnsupported):
                routers.append(RouterScan(router: scan.router, status: .unsupported, detail: e.reason))
            case .failure(let e as ControlError) where e.exitCode == .unavailable:
                routers.append(RouterScan(router: scan.router, status: .offline, detail: e.message))
            case .failure(let e):
                routers.append(RouterScan(router: scan.router, status: .failed, detail: "\(e)"))
            }
        }
        self.routers = routers
        channels = perChannel.keys.sorted().compactMap { ch in
            let readings = perChannel[ch] ?? [:]
            guard readings.count == scanned, let loudest = readings.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
            return Channel(channel: ch, maxRssi: loudest.value, routers: readings, loudestAt: loudest.key)
        }
    }

    /// Whether any router was scanned.
    var anyScanned: Bool { routers.contains { $0.status == .scanned } }

    /// The channel table, then each router's status.
    func render() -> String {
        let bars = channels.isEmpty ? "no router of \(structure) could scan" : EnergyBars.table(channels.map { ($0.channel, $0.maxRssi, $0.loudestAt) })
        let status = TextTable.render(header: ["ROUTER", "SCAN", "DETAIL"], rows: routers.map { [$0.router, $0.status.rawValue, $0.detail.isEmpty ? "-" : $0.detail] })
        return bars + "\n\n" + status
    }
}

/// The bar chart of an energy scan.
enum EnergyBars {
    /// `CHANNEL  MAX RSSI  [HEARD AT]  bar`.
    static func table(_ rows: [(channel: Int, rssi: Int, at: String?)]) -> String {
        let withWhere = rows.contains { $0.at != nil }
        let header = ["CHANNEL", "MAX RSSI"] + (withWhere ? ["LOUDEST AT"] : []) + ["ENERGY"]
        return TextTable.render(
            header: header,
            rows: rows.map { r in
                ["\(r.channel)", "\(r.rssi) dBm"] + (withWhere ? [r.at ?? "-"] : []) + [bar(r.rssi)]
            })
    }

    /// Nothing at -100 dBm or below, one mark per 2 dB above it, 40 marks at -20 dBm or above.
    static func bar(_ rssi: Int) -> String {
        String(repeating: "#", count: min(40, max(0, (rssi + 100) / 2)))
    }
}
