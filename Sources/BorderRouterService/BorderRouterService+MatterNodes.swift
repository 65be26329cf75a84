import RouterFleet
import InternetAccessPolicy
public import MatterCommissioning
public import DeviceModel
public import MatterCommissioner
public import MatterOnboarding
import TBRFoundation

/// The Matter nodes of structures as devices of the home: rooms, names, moving and removing them, and the
/// nodes of a shared commissioner that no structure holds (another controller's, or a commissioning whose
/// outcome was unknown), which a person may adopt. Nothing here touches a node no structure holds, except
/// `adoptMatterNode`, which only records it.
extension BorderRouterService {
    /// The rooms of `structure`, by name.
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for an unknown structure.
    public func rooms(of structure: StructureID) async throws(HomeError) -> [String] {
        try await matterNodes.rooms(in: structure)
    }

    /// Adds room `room` (the structure-name rules) to `structure` and returns its rooms.
    /// - Throws: ``DeviceModel/HomeError`` `invalidArgument` for a name that breaks the rules or is taken;
    ///   `notFound`.
    public func addRoom(_ room: String, to structure: StructureID) async throws(HomeError) -> [String] {
        let rooms = try await matterNodes.addRoom(room, to: structure)
        logger.info("room added", [("structure", structure.rawValue), ("room", room)])
        return rooms
    }

    /// Removes room `room` from `structure` and returns its rooms.
    /// - Throws: ``DeviceModel/HomeError`` `invalidState` naming the nodes placed in it; `invalidArgument`
    ///   for a room the structure lacks; `notFound`.
    public func removeRoom(_ room: String, from structure: StructureID) async throws(HomeError) -> [String] {
        let rooms = try await matterNodes.removeRoom(room, from: structure)
        logger.info("room removed", [("structure", structure.rawValue), ("room", room)])
        return rooms
    }

    /// Names node `node` of `structure` `name` (nil: no name): recorded, then written to the device's
    /// NodeLabel (an empty label for no name).
    /// - Returns: the node as recorded, and why the device did not take the label (nil when it did).
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for a node the structure does not hold;
    ///   `invalidArgument` for a name that breaks the rules (at most 32 bytes).
    public func renameMatterNode(_ node: NodeID, in structure: StructureID, to name: String?) async throws(HomeError)
        -> (node: RecordedMatterNode, labelProblem: String?)
    {
        let coordinator = try runningCommissioning()
        let record = try await matterNodes.name(node, in: structure, name)
        logger.info("Matter node renamed", [("structure", structure.rawValue), ("node", node.description)])
        do {
            try await commissioner.writeNodeLabel(node, record.name ?? "", timeout: coordinator.timeouts.call)
            return (record, nil)
        } catch {
            logger.notice("a Matter node did not take its name as its NodeLabel", [("node", node.description), ("error", error.message)])
            return (record, "the name is recorded but the device did not take it as its NodeLabel: \(error.message)")
        }
    }

    /// Places node `node` of `structure` in `room` (nil: in none).
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for a node the structure does not hold;
    ///   `invalidArgument` for a room the structure lacks.
    public func moveMatterNode(_ node: NodeID, in structure: StructureID, to room: String?) async throws(HomeError) -> RecordedMatterNode {
        let record = try await matterNodes.place(node, in: structure, room: room)
        logger.info("Matter node moved", [("structure", structure.rawValue), ("node", node.description), ("room", room ?? "")])
        return record
    }

    /// Removes node `node` of `structure` from the commissioner's fabric (`remove_node`) and forgets it.
    /// Unless `force`, the device must answer first: removing a device that does not hear it would leave
    /// it believing it is still on the fabric.
    /// - Throws: ``DeviceModel/HomeError``: `notFound` for a node the structure does not hold; `failed` for
    ///   a device that does not answer (without `force`) or a commissioner that refused; `unavailable`
    ///   when the commissioner cannot be reached.
    public func removeMatterNode(_ node: NodeID, from structure: StructureID, force: Bool) async throws(HomeError) {
        let coordinator = try runningCommissioning()
        guard try await matterNodes.nodes(in: structure).contains(where: { $0.nodeID == node }) else {
            throw HomeError(.notFound, "Matter node \(node) is not recorded in structure \(Quoted(try await structureName(structure)))")
        }
        let timeout = coordinator.timeouts.call
        let serverKnowsIt: Bool
        do {
            let answers = force ? true : try await commissioner.isReachable(node, timeout: timeout)
            guard answers else {
                throw HomeError(
                    .failed,
                    "Matter node \(node) does not answer: removing it now would leave the device believing it is still on the fabric; "
                        + "bring it back (power, network) and try again, or remove it anyway with force")
            }
            serverKnowsIt = true
        } catch let error as CommissionerError where error.serverCode == 5 {
            serverKnowsIt = false
        } catch let error as HomeError {
            throw error
        } catch let error as CommissionerError {
            throw CommissioningCoordinator.homeError(error, doing: "checking that node \(node) answers")
        } catch {
            throw HomeError(.failed, "checking that node \(node) answers failed: \(error)")
        }
        if !serverKnowsIt, !force {
            throw HomeError(
                .failed,
                "the commissioner (\(commissioner.backendName)) does not know Matter node \(node) any more (it was removed from its fabric "
                    + "elsewhere); remove it with force to forget it")
        }
        if serverKnowsIt {
            do throws(CommissionerError) { try await commissioner.removeNode(node, timeout: timeout) } catch {
                // Forced: a node the server forgot meanwhile is forgotten here too.
                if !(force && error.serverCode == 5) { throw CommissioningCoordinator.homeError(error, doing: "removing node \(node)") }
            }
        }
        try await matterNodes.forget(node)
        logger.info("Matter node removed", [("structure", structure.rawValue), ("node", node.description), ("forced", String(force))])
    }

    /// Records node `node`, which the commissioner has but no structure holds (another controller
    /// commissioned it, or tbrd's own commissioning ended with an unknown outcome), in `structure`. Its
    /// NodeLabel, when it has one that follows the naming rules, becomes its name. Nothing is sent to it.
    /// - Throws: ``DeviceModel/HomeError``: `notFound` when the commissioner does not have the node or the
    ///   structure is unknown; `invalidState` when a structure already holds it.
    public func adoptMatterNode(_ node: NodeID, into structure: StructureID) async throws(HomeError) -> RecordedMatterNode {
        let coordinator = try runningCommissioning()
        let known: [CommissionedNode]
        do { known = try await commissioner.nodes(timeout: coordinator.timeouts.call) } catch {
            throw CommissioningCoordinator.homeError(error, doing: "reading the commissioner's nodes")
        }
        guard let found = known.first(where: { $0.nodeID == node }) else {
            throw HomeError(.notFound, "the commissioner (\(commissioner.backendName)) has no Matter node \(node)")
        }
        let record = try await matterNodes.adopt(
            CommissionedNodeSummary(
                nodeID: node, vendorID: found.vendorID ?? 0, productID: found.productID ?? 0,
                label: found.label.flatMap { RecordedMatterNode.problem(withName: $0) == nil ? $0 : nil }),
            into: structure, backend: commissioner.backendName)
        logger.info("Matter node adopted", [("structure", structure.rawValue), ("node", node.description)])
        return record
    }

    /// The nodes the commissioner has that no structure holds: another controller's on a shared server,
    /// or one a commissioning of tbrd's may have added after its outcome became unknown.
    /// - Throws: ``DeviceModel/HomeError`` `notSupported` without a commissioner; `unavailable` when it
    ///   cannot be reached.
    public func unclaimedMatterNodes() async throws(HomeError) -> [CommissionedNode] {
        let coordinator = try runningCommissioning()
        let known: [CommissionedNode]
        do { known = try await commissioner.nodes(timeout: coordinator.timeouts.call) } catch {
            throw CommissioningCoordinator.homeError(error, doing: "reading the commissioner's nodes")
        }
        let claimed = Set(try await matterNodes.allNodes().map(\.nodeID))
        return known.filter { !claimed.contains($0.nodeID) }.sorted { $0.nodeID < $1.nodeID }
    }
}

extension BorderRouterService {
    /// The nodes the structures hold that the commissioner has, each with what the commissioner says of it
    /// now (whether it reaches it, its last known Thread parent), for the health monitor. A node the commissioner no longer
    /// has is left out (it was removed elsewhere).
    /// - Throws: ``DeviceModel/HomeError`` `notSupported` without a commissioner; `unavailable` when it
    ///   cannot be reached.
    public func matterNodeAvailability() async throws(HomeError) -> [(node: RecordedMatterNode, commissioned: CommissionedNode)] {
        let claimed = try await matterNodes.allNodes()
        guard !claimed.isEmpty else { return [] }
        let coordinator = try runningCommissioning()
        let known: [CommissionedNode]
        do { known = try await commissioner.nodes(timeout: coordinator.timeouts.call) } catch {
            throw CommissioningCoordinator.homeError(error, doing: "reading the commissioner's nodes")
        }
        let byID = Dictionary(known.map { ($0.nodeID, $0) }, uniquingKeysWith: { a, _ in a })
        return claimed.compactMap { node in byID[node.nodeID].map { (node: node, commissioned: $0) } }
    }
}
