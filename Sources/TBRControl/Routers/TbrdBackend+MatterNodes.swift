import DBus
import MatterOnboarding
import TBRDBusAPI
import TBRFoundation

/// Rooms and the Matter nodes of structures through tbrd (`io.tbrd.Structure1`, `io.tbrd.Manager1`:
/// docs/dbus-api.md).
extension TbrdBackend {
    private typealias MatterAPI = TBRDBusAPI.Structure

    /// `Rooms` of the structure at `path`.
    func rooms(at path: ObjectPath, structure: String) async throws -> [String] {
        do {
            return try await structureObject(path).property(MatterAPI.Property.rooms.rawValue, as: [String].self)
        } catch {
            throw ErrorMapping.controlError(error, doing: "reading the rooms of structure \(Quoted(structure))")
        }
    }

    /// `AddRoom(s room)`.
    func addRoom(_ room: String, at path: ObjectPath, structure: String) async throws {
        _ = try await call(
            structureObject(path), MatterAPI.addRoom.name, [.string(room)], doing: "adding room \(Quoted(room)) to \(Quoted(structure))")
    }

    /// `RemoveRoom(s room)`.
    func removeRoom(_ room: String, at path: ObjectPath, structure: String) async throws {
        _ = try await call(
            structureObject(path), MatterAPI.removeRoom.name, [.string(room)],
            doing: "removing room \(Quoted(room)) from \(Quoted(structure))")
    }

    /// The structure that holds node `node`, with the node's row.
    /// - Throws: ``ControlError`` 1 when no structure holds it.
    func structureHolding(_ node: NodeID) async throws -> (path: ObjectPath, name: String, row: MatterNodeRow) {
        for entry in try await structureEntries() {
            if let row = try await matterNodes(at: entry.path, structure: entry.name).first(where: { $0.nodeId == node.rawValue }) {
                return (entry.path, entry.name, row)
            }
        }
        throw ControlError.failure(
            "node \(node) is not recorded in any structure ('tbrctl matter nodes' lists them; 'tbrctl matter nodes --unclaimed' lists "
                + "the commissioner's nodes no structure holds)")
    }

    /// `RenameMatterNode(t node, s name) → s labelProblem`: nil when the device took the name as its NodeLabel.
    func renameMatterNode(_ node: NodeID, to name: String, at path: ObjectPath) async throws -> String? {
        let reply = try await matterCall(
            path, MatterAPI.renameMatterNode.name, [.uint64(node.rawValue), .string(name)], doing: "renaming node \(node)")
        guard case .string(let problem)? = reply.first else { throw ControlError.failure("RenameMatterNode did not answer a string") }
        return problem.isEmpty ? nil : problem
    }

    /// `MoveMatterNode(t node, s room)`, nil for no room.
    func moveMatterNode(_ node: NodeID, to room: String?, at path: ObjectPath) async throws {
        _ = try await matterCall(path, MatterAPI.moveMatterNode.name, [.uint64(node.rawValue), .string(room ?? "")], doing: "moving node \(node)")
    }

    /// `RemoveMatterNode(t node, b force)`.
    func removeMatterNode(_ node: NodeID, force: Bool, at path: ObjectPath) async throws {
        _ = try await matterCall(path, MatterAPI.removeMatterNode.name, [.uint64(node.rawValue), .bool(force)], doing: "removing node \(node)")
    }

    /// `AdoptMatterNode(t node)`.
    func adoptMatterNode(_ node: NodeID, at path: ObjectPath, structure: String) async throws {
        _ = try await matterCall(
            path, MatterAPI.adoptMatterNode.name, [.uint64(node.rawValue)], doing: "adopting node \(node) into \(Quoted(structure))")
    }

    /// `Manager1.UnclaimedMatterNodes() → a(tqqbs)`; tbrd's `NotSupported` (no commissioner) is 69.
    func unclaimedMatterNodes() async throws -> [UnclaimedMatterNodeRow] {
        let reply: [DBusValue]
        do {
            reply = try await manager.call(TBRDBusAPI.Manager.unclaimedMatterNodes.name, [], timeout: Self.matterCallTimeout)
        } catch let error as DBusError where error.name == TBRDBusAPI.Error.notSupported {
            throw ControlError.unavailable(error.message.isEmpty ? "tbrd has no Matter commissioner" : error.message)
        } catch {
            throw ErrorMapping.controlError(error, doing: "listing the commissioner's unclaimed nodes")
        }
        do { return try Self.decode(reply, as: [UnclaimedMatterNodeRow].self) } catch {
            throw ControlError.failure("UnclaimedMatterNodes answered something other than a(tqqbs): \(error)")
        }
    }
}
