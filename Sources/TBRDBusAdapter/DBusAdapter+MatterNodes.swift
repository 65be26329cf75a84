import BorderRouterService
import DBus
import MatterOnboarding
import TBRDBusAPI
import TBRFoundation

// The Matter nodes of structures as devices of the home, on io.tbrd.Structure1 (rooms, names, moving,
// removing, adopting) and io.tbrd.Manager1 (UnclaimedMatterNodes); and the owners of commissioning
// sessions, whose sessions are cancelled when they leave the bus.

extension DBusAdapter {
    /// A commissioning session of a structure.
    struct SessionKey: Hashable, Sendable {
        var structure: StructureID
        var session: CommissioningSessionID
    }

    /// The rooms and node methods of `io.tbrd.Structure1` for structure `id`.
    nonisolated func matterNodeMethods(_ id: StructureID) -> [Method] {
        [
            method(StructureAPI.addRoom) { [self] call in
                _ = try await self.structureService.addRoom(try call.argument(0), to: id)
                return []
            },
            method(StructureAPI.removeRoom) { [self] call in
                _ = try await self.structureService.removeRoom(try call.argument(0), from: id)
                return []
            },
            method(StructureAPI.renameMatterNode) { [self] call in
                let name: String = try call.argument(1)
                let (_, problem) = try await self.matter.changeNodes(id) {
                    try await $0.renameMatterNode(NodeID(try call.argument(0)), in: id, to: name.isEmpty ? nil : name)
                }
                return [.string(problem ?? "")]
            },
            method(StructureAPI.moveMatterNode) { [self] call in
                let room: String = try call.argument(1)
                _ = try await self.matter.changeNodes(id, needsCommissioner: false) {
                    try await $0.moveMatterNode(NodeID(try call.argument(0)), in: id, to: room.isEmpty ? nil : room)
                }
                return []
            },
            method(StructureAPI.removeMatterNode) { [self] call in
                try await self.matter.changeNodes(id) { try await $0.removeMatterNode(NodeID(try call.argument(0)), from: id, force: try call.argument(1)) }
                return []
            },
            method(StructureAPI.adoptMatterNode) { [self] call in
                _ = try await self.matter.changeNodes(id) { try await $0.adoptMatterNode(NodeID(try call.argument(0)), into: id) }
                return []
            },
        ]
    }

    /// `Manager1.UnclaimedMatterNodes`.
    func unclaimedMatterNodes() async throws -> [UnclaimedMatterNodeRow] {
        try await matter.unclaimedNodes().map {
            UnclaimedMatterNodeRow(
                nodeId: $0.nodeID.rawValue, vendorId: $0.vendorID ?? 0, productId: $0.productID ?? 0, available: $0.isAvailable,
                label: $0.label ?? "")
        }
    }

    /// `Rooms` of structure `id`.
    func roomNames(_ id: StructureID) async throws -> [String] { try await service.rooms(of: id) }

    /// `MatterNodes` of structure `id`.
    func matterNodeRows(_ id: StructureID) async throws -> [MatterNodeRow] {
        try await service.matterNodes.nodes(in: id).map {
            MatterNodeRow(
                nodeId: $0.nodeID.rawValue, vendorId: $0.vendorID, productId: $0.productID, commissionedAt: Self.milliseconds($0.commissionedAt),
                name: $0.name ?? "", room: $0.room ?? "")
        }
    }

    /// Signals `MatterNodes` of structure `id` as they are now.
    func emitMatterNodesChanged(_ id: StructureID) async {
        do {
            emitStructureChanged(id, [.matterNodes: try await matterNodeRows(id).dbusValue])
        } catch {
            logger.warning("could not read a structure's Matter nodes for their signal", [("structure", id.rawValue), ("error", "\(error)")])
        }
    }

    // MARK: the owners of commissioning sessions

    /// Records that `owner` (a unique bus name) opened `key`; when it has already left, cancels it at once.
    func own(_ key: SessionKey, by owner: String) async {
        guard !owner.isEmpty else { return }
        commissioningOwners[owner, default: []].insert(key)
        // The owner may have left before its name was recorded: its NameOwnerChanged was then ignored.
        let present: Bool
        do { present = try await connection.nameOwner(of: BusName(owner)) != nil } catch { present = true }
        if !present { await ownerLeft(owner) }
    }

    /// Forgets the owner of `key` (completed or cancelled by its owner).
    func disown(_ key: SessionKey) {
        for (owner, keys) in commissioningOwners where keys.contains(key) {
            commissioningOwners[owner]?.remove(key)
            if commissioningOwners[owner]?.isEmpty == true { commissioningOwners[owner] = nil }
        }
    }

    /// Cancels the sessions of every owner that leaves the bus (`NameOwnerChanged` with no new owner,
    /// subscribed in ``start``), until the bus connection ends.
    func followCommissioningOwners() async {
        do {
            for try await change in vanishedNames {
                await ownerLeft(change.name)
            }
        } catch {
            logger.debug("tbrd stopped following the owners of commissioning sessions", [("error", "\(error)")])
        }
    }

    private func ownerLeft(_ owner: String) async {
        guard let keys = commissioningOwners.removeValue(forKey: owner) else { return }
        for key in keys.sorted(by: { $0.session < $1.session }) {
            do {
                try await service.cancelMatterCommissioning(session: key.session, structure: key.structure)
                logger.info("commissioning session cancelled: its owner left the bus", [("session", key.session.rawValue), ("owner", owner)])
            } catch {
                // It had already completed or ended.
                logger.debug("a session whose owner left had already ended", [("session", key.session.rawValue), ("error", "\(error)")])
            }
        }
    }
}
