import MeshCoP
import DBus

/// What the radio and the infrastructure link report (`CcaFailureRate`, `MultiAilDetected`,
/// `OtRcpVersion`), set through the control method `SetRadioHealth`.
struct RadioHealth: Sendable, Equatable {
    /// Clear-channel-assessment failures, 0xffff = 100 %.
    var ccaFailureRate: UInt16 = 0
    /// Whether the border routing manager sees border routers on more than one infrastructure link.
    var multiAilDetected = false
    /// The radio co-processor's firmware version string.
    var rcpVersion = SimulatedAgent.otRcpVersion
}

/// The control side of the simulated mesh (`AddNode`, `RemoveNode`, `SetRadioHealth`) and the agent
/// properties that answer from it.
extension SimulatedAgent {
    /// `AddNode(s kind, t ext_address, t parent, y link_quality, b rx_on_when_idle, b full_thread_device,
    /// u timeout) → q rloc16`.
    /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` with the reason for a node the mesh refuses.
    func handleAddNode(_ call: MethodCall) throws -> [DBusValue] {
        let kindName: String = try call.argument(0)
        guard let kind = MeshNode.Kind(rawValue: kindName) else {
            throw DBusError(.invalidArgs, "kind must be \"router\" or \"child\", not \"\(kindName)\"")
        }
        let node: MeshNode
        if mesh.nodes.isEmpty { meshNetwork = activeNetwork }
        do {
            node = try mesh.add(
                kind: kind, extAddress: try call.argument(1), parent: try call.argument(2), linkQuality: try call.argument(3),
                rxOnWhenIdle: try call.argument(4), fullThreadDevice: try call.argument(5), timeout: try call.argument(6),
                borderRouterID: runtime.routerID, now: clock.now())
        } catch let error as MeshError {
            throw DBusError(.invalidArgs, error.description)
        }
        logger.debug("simulated node joined", [("kind", kind.rawValue), ("ext", SimulatedMesh.hex(node.extAddress))])
        return [.uint16(mesh.rloc16(of: node, borderRouterID: runtime.routerID))]
    }

    /// `RemoveNode(t ext_address) → b removed`: the node detaches cleanly, at once.
    func handleRemoveNode(_ call: MethodCall) throws -> [DBusValue] {
        [.bool(mesh.remove(try call.argument(0)))]
    }

    /// `SetRadioHealth(q cca_failure_rate, b multi_ail_detected, s rcp_version)`.
    func handleSetRadioHealth(_ call: MethodCall) throws -> [DBusValue] {
        radioHealth = RadioHealth(ccaFailureRate: try call.argument(0), multiAilDetected: try call.argument(1), rcpVersion: try call.argument(2))
        return []
    }

    /// The Extended PAN ID of the active dataset, if any.
    var activeNetwork: ExtendedPANID? { persistent.activeDataset.flatMap(DatasetRules.decode)?.extendedPANID }

    /// The simulated nodes as the agent sees them: all of them while it is attached to their network
    /// (``meshNetwork``), none on any other. A Thread node keeps its own dataset: after a factory reset
    /// or a `Join` elsewhere the agent has left them, and they are its neighbours again only once it is
    /// back on their network (INFERRED: MLE attaches only with the same key, PAN ID and channel).
    var visibleMesh: SimulatedMesh {
        runtime.role.isAttached && (meshNetwork == nil || meshNetwork == activeNetwork) ? mesh : SimulatedMesh()
    }

    /// `NeighborTable`: the one-hop nodes while attached, else empty.
    var neighborTableProperty: DBusValue {
        let rows = runtime.role.isAttached ? visibleMesh.neighborTable(borderRouterID: runtime.routerID, now: clock.now()) : []
        return .array(element: Self.rowType("NeighborTable"), rows)
    }

    /// `ChildTable`: the border router's children up to the first empty slot while attached, else empty.
    var childTableProperty: DBusValue {
        let rows = runtime.role.isAttached ? visibleMesh.childTable(networkDataVersion: runtime.networkDataVersion, now: clock.now()) : []
        return .array(element: Self.rowType("ChildTable"), rows)
    }

    private static func rowType(_ property: String) -> SignatureType {
        if case .array(let element) = PropertyTable.type(of: property) { return element }
        return .string
    }
}
