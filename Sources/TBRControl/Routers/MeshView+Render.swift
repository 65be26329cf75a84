import OpenThreadBR
import TBRDocuments

extension MeshView {
    /// The text form: the partition, the network data, and the nodes as a tree a person reads at a glance.
    func render() -> String {
        var lines: [String] = []
        if let partition = topology.partitionID, let leader = topology.leaderRouterID {
            lines.append("Mesh of \(router): partition \(Self.hex32(partition)), leader router \(leader)")
        } else {
            lines.append("Mesh of \(router): not attached to a Thread network")
        }
        if !topology.onMeshPrefixes.isEmpty || !topology.externalRoutes.isEmpty {
            lines.append("")
            lines.append("Network data")
            for p in topology.onMeshPrefixes {
                let omr = p.isOMR ? "  OMR" : ""
                lines.append(
                    "  on-mesh prefix  \(p.prefix)\(omr)  from \(MeshNode.hex(p.rloc16)), \(p.preference.rawValue) preference"
                        + "  [\(p.flagNames.joined(separator: " "))]")
            }
            for r in topology.externalRoutes {
                lines.append(
                    "  external route  \(r.prefix)  from \(MeshNode.hex(r.rloc16)), \(r.preference.rawValue) preference"
                        + (r.stable ? "  [stable]" : ""))
            }
        }
        let counts = Dictionary(grouping: topology.nodes, by: \.role).mapValues(\.count)
        lines.append("")
        lines.append(
            "Nodes: \(counts[.leader] ?? 0) leader, "
                + Self.count(counts[.router] ?? 0, "router", "routers") + ", "
                + Self.count(counts[.child] ?? 0, "child", "children")
                + (topology.nodes.contains { $0.source == .diagnostics } ? " (* reported by network diagnostics)" : ""))
        let rows = tree()
        var above: [MeshNode] = []  // the row each depth hangs under
        for (k, row) in rows.enumerated() {
            above.removeSubrange(min(row.depth, above.count)...)
            lines.append(Self.indent(rows, at: k) + describe(row.node, under: above.last))
            above.append(row.node)
        }
        if let horizon = topology.horizon {
            lines.append("")
            lines.append("The view ends at " + horizon + ".")
        }
        return lines.joined(separator: "\n")
    }

    /// "1 router", "2 routers".
    private static func count(_ n: Int, _ one: String, _ many: String) -> String {
        "\(n) \(n == 1 ? one : many)"
    }

    /// `├── `, `│   └── ` and so on, from the depths of the rows after row `k`.
    private static func indent(_ rows: [(depth: Int, node: MeshNode)], at k: Int) -> String {
        let depth = rows[k].depth
        guard depth > 0 else { return "" }
        var text = ""
        for level in 1...depth {
            // Whether another row at `level` follows before the tree climbs above it.
            var more = false
            for later in rows[(k + 1)...] {
                if later.depth < level { break }
                if later.depth == level {
                    more = true
                    break
                }
            }
            if level == depth { text += more ? "├── " : "└── " } else { text += more ? "│   " : "    " }
        }
        return text
    }

    /// One node's line; `above` is the node it hangs under in the tree.
    private func describe(_ n: MeshNode, under above: MeshNode?) -> String {
        var parts = ["\(n.extAddress)  \(n.rloc16Text)"]
        switch n.role {
        case .leader: parts.append("leader, router \(n.routerID.map(String.init) ?? "-")")
        case .router: parts.append("router \(n.routerID.map(String.init) ?? "-")")
        case .child: parts.append("child")
        }
        if n.role == .child, let mode = n.mode {
            parts.append((mode.rxOnWhenIdle ? "rx-on" : "sleepy") + " " + (mode.fullThreadDevice ? "FTD" : "MTD"))
        }
        if let timeout = n.timeout { parts.append("timeout \(timeout) s") }
        switch (n.linkQualityIn, n.linkQualityOut) {
        case (let i?, let o?): parts.append("link quality in \(i), out \(o)")
        case (let i?, nil): parts.append("link quality \(i)")
        case (nil, let o?): parts.append("link quality out \(o)")
        case (nil, nil):
            // A router beyond the first hop: the link to the router above it, as that router reports it.
            if n.role != .child, let above, let l = above.links.first(where: { $0.rloc16 == n.rloc16 }),
                l.linkQualityIn != nil || l.linkQualityOut != nil
            {
                let quality = [l.linkQualityIn.map { "in \($0)" }, l.linkQualityOut.map { "out \($0)" }].compactMap { $0 }
                parts.append("link with \(above.rloc16Text) quality \(quality.joined(separator: ", "))")
            }
        }
        if let age = n.age { parts.append("heard \(age) s ago") }
        if n.source == .self { parts.append("(this border router)") }
        if n.source == .diagnostics { parts.append("*") }
        return parts.joined(separator: "  ")
    }

    private static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
