public import TBRFoundation

/// An error from the store: the database could not be opened or used, or a request broke one of the
/// store's rules (unknown structure, duplicate name, …). Each case reads as one clear sentence.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite failed; the underlying error carries the codes, message and SQL.
    case sqlite(SQLiteError)
    /// The database was written by a newer tbrd: its schema version is above what this build knows.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// A schema migration failed and was rolled back.
    case migrationFailed(path: String, version: Int, summary: String, underlying: SQLiteError)
    /// No structure has this name or id.
    case structureNotFound(String)
    /// Another structure already has this name.
    case duplicateStructureName(String)
    /// The name cannot be used for a structure.
    case invalidStructureName(String, reason: String)
    /// The router has never been recorded (``TBRStore/recordRouter(_:)``).
    case routerNotFound(DeviceID)
    /// A router with this id, or this REST URL, is already known.
    case routerAlreadyKnown(DeviceID, reason: String)
    /// The router is already a member of another structure (a router belongs to at most one).
    case routerInAnotherStructure(router: DeviceID, structure: String)
    /// The router is not a member of this structure.
    case routerNotInStructure(router: DeviceID, structure: String)
    /// An argument is out of range or inconsistent.
    case invalidArgument(String)
    /// The name cannot be used for a room or a Matter node (`what`: "a room", "a Matter node").
    case invalidName(String, what: String, reason: String)
    /// The structure has no room of this name.
    case roomNotFound(room: String, structure: String)
    /// The structure already has a room of this name.
    case duplicateRoom(room: String, structure: String)
    /// The room holds these Matter nodes, so it cannot be removed.
    case roomInUse(room: String, structure: String, nodes: [UInt64])
    /// No Matter node of this ID is recorded in the structure.
    case matterNodeNotFound(node: UInt64, structure: String)
    /// The Matter node is already recorded in a structure.
    case matterNodeAlreadyRecorded(node: UInt64, structure: String)
    /// No API token has this name.
    case tokenNotFound(String)
    /// An API token of this name exists already.
    case duplicateToken(String)

    /// The error as one clear sentence.
    public var description: String {
        switch self {
        case .sqlite(let e):
            "the state database failed: \(e)"
        case .schemaTooNew(let path, let found, let supported):
            "\(path) has schema version \(found), newer than the \(supported) this tbrd supports; "
                + "it was written by a newer tbrd: run that version, or move the file away to start afresh"
        case .migrationFailed(let path, let version, let summary, let underlying):
            "cannot upgrade \(path) to schema version \(version) (\(summary)); nothing was changed: \(underlying)"
        case .structureNotFound(let s):
            "there is no structure \(s)"
        case .duplicateStructureName(let name):
            "a structure named \(Quoted(name)) already exists"
        case .invalidStructureName(let name, let reason):
            "\(Quoted(name)) cannot name a structure: \(reason)"
        case .routerNotFound(let id):
            "border router \(id) is not known"
        case .routerAlreadyKnown(let id, let reason):
            "border router \(id) is already known: \(reason)"
        case .routerInAnotherStructure(let router, let structure):
            "border router \(router) already belongs to structure \(Quoted(structure)); remove it from there first"
        case .routerNotInStructure(let router, let structure):
            "border router \(router) is not in structure \(Quoted(structure))"
        case .invalidArgument(let message):
            message
        case .invalidName(let name, let what, let reason):
            "\(Quoted(name)) cannot name \(what): \(reason)"
        case .roomNotFound(let room, let structure):
            "structure \(Quoted(structure)) has no room \(Quoted(room))"
        case .duplicateRoom(let room, let structure):
            "structure \(Quoted(structure)) already has a room \(Quoted(room))"
        case .roomInUse(let room, let structure, let nodes):
            "room \(Quoted(room)) of structure \(Quoted(structure)) holds Matter node\(nodes.count == 1 ? "" : "s") "
                + nodes.map(String.init).joined(separator: ", ") + ": move or remove \(nodes.count == 1 ? "it" : "them") first"
        case .matterNodeNotFound(let node, let structure):
            "Matter node \(node) is not recorded in structure \(Quoted(structure))"
        case .matterNodeAlreadyRecorded(let node, let structure):
            "Matter node \(node) is already recorded in structure \(Quoted(structure))"
        case .tokenNotFound(let name):
            "there is no API token \(Quoted(name))"
        case .duplicateToken(let name):
            "an API token named \(Quoted(name)) exists already"
        }
    }

    /// `error` as a store error: store and SQLite errors as they are, anything else wrapped.
    init(_ error: any Error) {
        switch error {
        case let e as StoreError: self = e
        case let e as SQLiteError: self = .sqlite(e)
        default: self = .sqlite(SQLiteError(code: .error, message: "\(error)"))
        }
    }
}
