import DBus
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing

/// One row of `NeighborTable` (`(tuquuyyyqqqbbbb)`), the fields the tests look at.
struct NeighborRow: Equatable {
    var ext: UInt64, age: UInt32, rloc16: UInt16, linkQualityIn: UInt8, averageRSSI: Int8, version: UInt16
    var rxOnWhenIdle: Bool, fullThreadDevice: Bool, fullNetworkData: Bool, isChild: Bool

    init(_ value: DBusValue) throws {
        guard case .structure(let f) = value, f.count == 15, case .uint64(let ext) = f[0], case .uint32(let age) = f[1],
            case .uint16(let rloc) = f[2], case .byte(let lq) = f[5], case .byte(let rssi) = f[6], case .uint16(let v) = f[10],
            case .bool(let rx) = f[11], case .bool(let ftd) = f[12], case .bool(let nd) = f[13], case .bool(let child) = f[14]
        else { throw TestKitError("not a NeighborTable row: \(value)") }
        (self.ext, self.age, rloc16, linkQualityIn, averageRSSI, version) = (ext, age, rloc, lq, Int8(bitPattern: rssi), v)
        (rxOnWhenIdle, fullThreadDevice, fullNetworkData, isChild) = (rx, ftd, nd, child)
    }
}

/// One row of `ChildTable` (`(tuuqqyyyyqqbbbb)`), the fields the tests look at.
struct ChildRow: Equatable {
    var ext: UInt64, timeout: UInt32, rloc16: UInt16, childID: UInt16, networkDataVersion: UInt8, linkQualityIn: UInt8
    var rxOnWhenIdle: Bool, fullThreadDevice: Bool

    init(_ value: DBusValue) throws {
        guard case .structure(let f) = value, f.count == 15, case .uint64(let ext) = f[0], case .uint32(let timeout) = f[1],
            case .uint16(let rloc) = f[3], case .uint16(let id) = f[4], case .byte(let nd) = f[5], case .byte(let lq) = f[6],
            case .bool(let rx) = f[11], case .bool(let ftd) = f[12]
        else { throw TestKitError("not a ChildTable row: \(value)") }
        (self.ext, self.timeout, rloc16, childID, networkDataVersion, linkQualityIn) = (ext, timeout, rloc, id, nd, lq)
        (rxOnWhenIdle, fullThreadDevice) = (rx, ftd)
    }
}

extension RESTEnvironment {
    /// The agent object (`io.openthread.BorderRouter`), read as any client reads it.
    var agentObject: RemoteObject {
        RemoteObject(
            connection: connection, destination: dbus.interfaceName.busName, path: dbus.interfaceName.objectPath,
            interface: OTBRNames.interface)
    }

    /// `AddNode` on the control interface: the new node's RLOC16.
    @discardableResult
    func addNode(
        _ kind: String, _ ext: UInt64, parent: UInt64 = 0, linkQuality: UInt8 = 3, rxOnWhenIdle: Bool = true,
        fullThreadDevice: Bool = true, timeout: UInt32 = 240
    ) async throws -> UInt16 {
        let reply = try await control(
            "AddNode",
            [.string(kind), .uint64(ext), .uint64(parent), .byte(linkQuality), .bool(rxOnWhenIdle), .bool(fullThreadDevice), .uint32(timeout)])
        guard case .uint16(let rloc16) = reply.first else { throw TestKitError("AddNode answered \(reply)") }
        return rloc16
    }

    /// `RemoveNode` on the control interface.
    func removeNode(_ ext: UInt64) async throws -> Bool {
        let reply = try await control("RemoveNode", [.uint64(ext)])
        guard case .bool(let removed) = reply.first else { throw TestKitError("RemoveNode answered \(reply)") }
        return removed
    }

    /// The error `AddNode` answers with these arguments (nil when it succeeds).
    func addNodeError(_ kind: String, _ ext: UInt64, parent: UInt64 = 0, linkQuality: UInt8 = 3) async -> DBusError? {
        do {
            try await addNode(kind, ext, parent: parent, linkQuality: linkQuality)
            return nil
        } catch let error as DBusError {
            return error
        } catch {
            return DBusError(.failed, "\(error)")
        }
    }

    func neighborTable() async throws -> [NeighborRow] { try await rows("NeighborTable").map(NeighborRow.init) }

    func childTable() async throws -> [ChildRow] { try await rows("ChildTable").map(ChildRow.init) }

    /// `OnMeshPrefixes` or `ExternalRoutes`, element by element.
    func rows(_ property: String) async throws -> [DBusValue] {
        guard case .array(_, let items) = try await agentObject.property(property) else {
            throw TestKitError("\(property) is not an array")
        }
        return items
    }

    /// The agent's router ID and RLOC16, which it has while attached.
    func routerID() async throws -> UInt8 { try await agentObject.property("RouterID", as: UInt8.self) }
}

/// Runs `body` with a simulated agent that is already leader of `sampleDataset` (REST tasks answered
/// after 20 ms).
func withAttachedSimulator(_ body: (RESTEnvironment) async throws -> Void) async throws {
    let configure: (inout SimulatorConfiguration) -> Void = {
        $0.initialDataset = try? OperationalDataset(bytes: sampleDataset)
        $0.diagnosticDelay = .milliseconds(20)
    }
    try await withRESTSimulator(configure: configure) { env throws in
        #expect(try await env.dbus.deviceRole() == .leader)
        try await body(env)
    }
}
