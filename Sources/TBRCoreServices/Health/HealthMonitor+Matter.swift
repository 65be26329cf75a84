import BorderRouterService
import MatterCommissioner
import MatterCommissioning
import MeshCoP
import Store

/// `matter-unavailable` (issue 49): the Matter nodes the structures hold, by what the Matter server says of
/// them at each router change and backstop pass, and each one's last known Thread parent.
extension HealthMonitor {
    /// `matter-unavailable` of every Matter node the structures hold, by what the commissioner says now;
    /// a change of availability is a sample of the history. Nothing without a commissioner or nodes.
    func checkMatterNodes() async {
        guard !matterChecking else {
            matterAgain = true
            return
        }
        matterChecking = true
        defer { matterChecking = false }
        repeat {
            matterAgain = false
            guard let nodes = try? await service.matterNodeAvailability() else { return }
            let held = Set(nodes.map(\.node.nodeID.rawValue))
            for gone in nodesAvailable.keys where !held.contains(gone) {
                nodesAvailable[gone] = nil
                await close(subject: "node \(gone)", check: Self.matterUnavailable)
            }
            for (node, commissioned) in nodes { await checkMatterNode(node, commissioned) }
        } while matterAgain
    }

    private func checkMatterNode(_ node: RecordedMatterNode, _ commissioned: CommissionedNode) async {
        let available = commissioned.isAvailable
        let id = node.nodeID.rawValue
        let subject = "node \(id)"
        if nodesAvailable[id] != available {
            nodesAvailable[id] = available
            await append(HealthSampleRecord(subject: subject, state: available ? "available" : "unavailable"))
        }
        guard !available else {
            await close(subject: subject, check: Self.matterUnavailable)
            return
        }
        let structure = (try? await diagnostics.structures.structure(id: node.structure)) ?? nil
        let structureName = structure?.name ?? node.structure.rawValue
        let routers = structure?.deviceIDs.map(\.rawValue) ?? []
        let onRouters = ((try? await store.openProblems()) ?? []).filter { routers.contains($0.subject) }
        let named = [node.name.map { "\"\($0)\"" }, node.room.map { "in \($0)" }].compactMap { $0 }.joined(separator: " ")
        let suspects =
            onRouters.isEmpty
            ? "no router of \(structureName) has an open problem"
            : "open on the routers of \(structureName) now: " + onRouters.map { "\($0.subject) \($0.check)" }.joined(separator: ", ")
        let parent = await parentText(commissioned.threadParent)
        await open(
            subject: subject, check: Self.matterUnavailable,
            message: "Matter node \(id)\(named.isEmpty ? "" : " (" + named + ")") of \(structureName) is unavailable to the Matter server; \(parent); \(suspects)",
            fix: "tbrctl health history shows what changed on the routers before; check the device has power and is in range of a router")
    }

    /// `its last known parent is wpan0 (LQI 255, average RSSI -60 dBm)`: the node's Thread parent as it
    /// last reported it, named by the router it is (one of tbrd's, by its extended address) or the router
    /// whose neighbour it was at tbrd's last reading.
    private func parentText(_ parent: ThreadNeighbor?) async -> String {
        guard let parent else { return "it reported no Thread parent (a router, or no Thread Network Diagnostics)" }
        let address = ExtendedAddress(rawValue: parent.extAddress)
        var link: [String] = []
        if let lqi = parent.lqi { link.append("LQI \(lqi)") }
        if let rssi = parent.averageRssi { link.append("average RSSI \(rssi) dBm") }
        let linkText = link.isEmpty ? "" : " (" + link.joined(separator: ", ") + ")"
        let summaries = await service.routerSummaries()
        if let router = summaries.first(where: { $0.extendedAddress == address }) {
            return "its last known parent is \(router.id)\(linkText)"
        }
        let near = observations.filter { $0.value.neighbors.contains { $0.address == address.description } }.keys.map(\.rawValue).sorted()
        if !near.isEmpty {
            return "its last known parent is router \(address)\(linkText), a neighbour of \(near.joined(separator: ", "))"
        }
        return "its last known parent is \(address)\(linkText), which no border router of tbrd saw at its last reading"
    }

    /// The check that follows a Matter node the commissioner cannot reach.
    package static let matterUnavailable = "matter-unavailable"
}
