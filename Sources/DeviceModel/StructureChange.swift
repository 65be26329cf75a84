/// A change of the structures a ``StructureStore`` keeps, announced after it is stored
/// (``StructureStore/changes(bufferLimit:)``): what the policy reconciler and tbrd's D-Bus signals follow.
public enum StructureChange: Hashable, Sendable {
    /// A structure was created.
    case created(StructureID)
    /// Its settings (``ThreadNetworkSettingsTrait/Attributes``) changed.
    case settingsChanged(StructureID)
    /// A border router was added to it or removed from it.
    case membersChanged(StructureID)
    /// It was deleted; its routers belong to no structure now.
    case deleted(StructureID)
    /// Its routers' policy status (``StructureStore/policyStatus(of:)``) was recorded anew.
    case policyStatusChanged(StructureID)

    /// The structure that changed.
    public var structure: StructureID {
        switch self {
        case .created(let id), .settingsChanged(let id), .membersChanged(let id), .deleted(let id),
            .policyStatusChanged(let id):
            id
        }
    }
}
