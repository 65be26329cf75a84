package import MeshCoP
package import TBRDocuments

/// What a migration or channel change does to each router of a structure, decided before anything is
/// sent (docs/architecture.md, "Moving a structure onto one network"). Pure: the daemon reads the routers,
/// this plans, the daemon sends; MigrationMachine follows what was sent.
package enum MigrationPlanner {
    /// One router as planning sees it.
    package struct Router: Sendable {
        package var id: String
        package var transport: String
        package var online: Bool
        /// Its active dataset; nil when it has none (or it could not be read).
        package var network: OperationalDataset?

        package init(id: String, transport: String, online: Bool, network: OperationalDataset?) {
            self.id = id
            self.transport = transport
            self.online = online
            self.network = network
        }
    }

    /// The delay otbr-agent's `AttachAllNodesTo` always gives (D-Bus takes no delay).
    package static let agentDelayMs: UInt32 = 300_000
    /// How long after a router's delay tbrd waits for it to show the target before it says `failed`.
    package static let graceSeconds = 30.0

    /// Whether `network` is the target: the same Extended PAN ID, PAN ID and channel.
    package static func isOn(_ network: OperationalDataset?, _ target: OperationalDataset) -> Bool {
        guard let network else { return false }
        return network.extendedPANID == target.extendedPANID && network.panID == target.panID && network.channel == target.channel
    }

    /// The plan: routers on the target stay, offline or network-less ones are skipped (named, not
    /// touched), the others move through a pending dataset carrying the target's Active Timestamp and a
    /// Pending Timestamp of `now`, with `delaySeconds` over REST and the agent's 300 s over D-Bus.
    /// `kind` `channel` moves only the routers on `target`'s Extended PAN ID (the others are skipped).
    package static func plan(
        kind: MigrationKind, target: OperationalDataset, routers: [Router], delaySeconds: UInt32, now: Double, detail: String
    ) -> Migration {
        let stamp = target.activeTimestamp?.seconds ?? 0
        var due = 0.0
        let steps = routers.sorted { $0.id < $1.id }.map { r -> MigrationStep in
            var step = MigrationStep(
                router: r.id, transport: r.transport, action: .skip, fromExtPanId: r.network?.extendedPANID?.description ?? "",
                fromNetworkName: r.network?.networkName?.rawValue ?? "", fromChannel: r.network?.channel?.number ?? 0,
                activeTimestamp: 0, pendingTimestamp: 0, delayMs: 0, dueAt: 0, outcome: .skipped, detail: "")
            if !r.online {
                step.detail = "offline at planning time; not touched"
            } else if r.network == nil {
                step.detail = "on no network; join it with 'tbrctl network join'"
            } else if isOn(r.network, target) {
                step.action = .stay
                step.outcome = .unchanged
                step.detail = "already on the target"
            } else if kind == .channel && r.network?.extendedPANID != target.extendedPANID {
                step.detail = "on another network (\(step.fromExtPanId)); a channel change moves only the structure's network"
            } else {
                step.action = .move
                step.outcome = .planned
                step.activeTimestamp = stamp
                step.pendingTimestamp = UInt64(max(0, now))
                step.delayMs = r.transport == "dbus" ? agentDelayMs : delaySeconds * 1000
                step.dueAt = now + Double(step.delayMs) / 1000
                step.detail = r.transport == "dbus" ? "otbr-agent's AttachAllNodesTo always waits 300 s" : ""
                due = max(due, step.dueAt)
            }
            return step
        }
        return Migration(
            kind: kind, state: .planned, targetExtPanId: target.extendedPANID?.description ?? "",
            targetNetworkName: target.networkName?.rawValue ?? "", targetChannel: target.channel?.number ?? 0, startedAt: now,
            dueAt: due, detail: detail, steps: steps)
    }

    /// The structure's network on `channel`: the same credentials, an Active Timestamp one second newer
    /// (with the same network key the leader takes a pending dataset only with a newer one).
    package static func onChannel(_ network: OperationalDataset, _ channel: UInt16) -> OperationalDataset {
        var moved = network
        moved.channel = Channel(channel)
        moved.activeTimestamp = Timestamp(seconds: (network.activeTimestamp?.seconds ?? 0) + 1)
        return moved
    }

    /// Why `channel` cannot carry `network`, or nil: outside its channel mask, or not supported by the
    /// radio of one of `supported`'s routers (nil mask: the router cannot say, over REST).
    package static func channelProblem(_ channel: UInt16, network: OperationalDataset, supported: [(router: String, mask: UInt32?)]) -> String? {
        guard Channel.page0Channels.contains(channel) else { return "channel \(channel) is not a 2.4 GHz Thread channel (11-26)" }
        if let mask = network.channelMask, let page0 = mask.entries.first(where: { $0.page == 0 }), !page0.channels.contains(channel) {
            return "channel \(channel) is outside the network's channel mask (\(page0))"
        }
        let lacking = supported.filter { $0.mask.map { $0 & (1 << UInt32(channel)) == 0 } ?? false }.map(\.router)
        if !lacking.isEmpty { return "channel \(channel) is not supported by the radio of \(lacking.joined(separator: ", "))" }
        return nil
    }

    /// `--auto`: the channel whose strongest energy over the routers' scans is lowest, among the allowed
    /// ones; ties go to the lower channel number.
    package static func quietest(_ scans: [[(channel: UInt16, maxRSSI: Int)]], allowed: (UInt16) -> Bool) -> (channel: UInt16, energy: Int)? {
        var loudest: [UInt16: Int] = [:]
        var seen: [UInt16: Int] = [:]
        for scan in scans {
            for reading in scan {
                loudest[reading.channel] = max(loudest[reading.channel] ?? Int.min, reading.maxRSSI)
                seen[reading.channel, default: 0] += 1
            }
        }
        return loudest.filter { seen[$0.key] == scans.count && allowed($0.key) }
            .min { ($0.value, $0.key) < ($1.value, $1.key) }
            .map { ($0.key, $0.value) }
    }

    /// The outcome of a step whose router did not show the target by its deadline, from what the router
    /// holds now: `failed`, saying where it is: offline, on no network, still on its network (and whether
    /// another pending dataset replaced tbrd's, or tbrd's is still waiting), or on neither network.
    package static func verdict(_ step: MigrationStep, online: Bool, active: OperationalDataset?, pending: OperationalDataset?)
        -> (outcome: MigrationOutcome, detail: String)
    {
        guard online else {
            return (.failed, "offline when the delay ended; it was on \(step.fromExtPanId) and may still move when it comes back")
        }
        guard let active else { return (.failed, "on no network when the delay ended (its active dataset cannot be read)") }
        let xpan = active.extendedPANID?.description ?? "?"
        let channel = active.channel?.number ?? 0
        if xpan == step.fromExtPanId, channel == step.fromChannel {
            var why = "still on \(xpan): the pending dataset did not take effect"
            if let pending, pending.pendingTimestamp?.seconds != step.pendingTimestamp {
                why += " (another pending dataset, Pending Timestamp \(pending.pendingTimestamp?.seconds ?? 0), replaced tbrd's)"
            } else if pending != nil {
                why += " (tbrd's pending dataset is still there: the agent's delay has not ended)"
            }
            return (.failed, why)
        }
        return (.failed, "on neither network: now on \(xpan) channel \(channel)")
    }
}
