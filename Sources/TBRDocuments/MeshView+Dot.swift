import OpenThreadBR

extension MeshView {
    /// The Graphviz form (`dot -Tsvg`): each node labelled with its extended address and RLOC16, the border
    /// router a double octagon, routers ellipses (the leader bold), children boxes (sleepy ones dashed);
    /// router links and child links labelled with their link quality.
    public func dot() -> String {
        var lines = ["graph \"thread-mesh\" {", "  label=\"\(Self.escape("Thread mesh of \(router)"))\";", "  node [fontname=\"monospace\"];"]
        var byRloc: [UInt16: MeshNode] = [:]
        for n in topology.nodes where n.role != .child { byRloc[n.rloc16] = n }
        for n in topology.nodes {
            var attributes = ["label=\"\(n.extAddress)\\n\(n.rloc16Text)\""]
            switch (n.source, n.role) {
            case (.self, _): attributes.append("shape=doubleoctagon")
            case (_, .child): attributes.append("shape=box")
            default: attributes.append("shape=ellipse")
            }
            if n.role == .leader { attributes.append("style=bold") }
            if n.role == .child, n.mode?.rxOnWhenIdle == false { attributes.append("style=dashed") }
            if n.source == .diagnostics { attributes.append("color=gray40") }
            lines.append("  \"\(n.extAddress)\" [\(attributes.joined(separator: ", "))];")
        }
        var drawn: Set<[UInt16]> = []
        for n in topology.nodes where n.role != .child {
            for l in n.links {
                guard let other = byRloc[l.rloc16], drawn.insert([n.rloc16, l.rloc16].sorted()).inserted else { continue }
                let label =
                    l.linkQualityOut.map { "LQ in \(l.linkQualityIn.map(String.init) ?? "?") / out \($0)" }
                    ?? "LQ \(l.linkQualityIn.map(String.init) ?? "?")"
                lines.append("  \"\(n.extAddress)\" -- \"\(other.extAddress)\" [label=\"\(label)\"];")
            }
        }
        for n in topology.nodes where n.role == .child {
            guard let parent = n.parent else { continue }
            let label = n.linkQualityIn.map { "LQ \($0)" } ?? ""
            lines.append("  \"\(parent)\" -- \"\(n.extAddress)\" [label=\"\(label)\", style=dotted];")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
