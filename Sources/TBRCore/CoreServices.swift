public import MeshCoP
public import TBRDocuments
public import TBRFoundation

// What tbrd's core answers, by concern: the calls every adapter maps to and from (the HTTP adapter
// today; the D-Bus adapter and MQTT next). Each takes the names a person gives (a router's id, interface
// name or Border Agent ID; a structure's name) and returns the documents tbrctl prints (TBRDocuments);
// each failure is a ``CoreError``. No call takes or returns a transport's value (no D-Bus row, no HTTP
// request): an adapter maps, the core decides (docs/architecture.md, "Layers").

/// Routers, their networks and their ePSKc.
public protocol RouterCore: Sendable {
    /// Every router, sorted by id.
    func routerListings() async -> [RouterListing]
    /// One router, from the same readings its D-Bus properties serve.
    func routerInfo(_ router: String) async throws -> RouterInfo
    /// Starts an ePSKc on `router` for `seconds` (1…600). The key goes to this caller only.
    func activateEpskc(_ router: String, seconds: Int) async throws -> (router: String, activation: EpskcActivation)
    /// Ends the ePSKc of `router` (its session with a commissioner too); answers the router's id.
    func deactivateEpskc(_ router: String) async throws -> String
    /// The Active or Pending dataset of `router` (secrets redacted unless the encoder asks).
    func dataset(_ router: String, pending: Bool) async throws -> (router: String, dataset: OperationalDataset)
    /// `router` joins the network of the Active dataset `datasetHex` (with its structure unless `thisRouterOnly`).
    func join(_ router: String, datasetHex: String, thisRouterOnly: Bool) async throws -> (router: String, result: JoinResult)
    /// `router` leaves its network; answers the router's id.
    func leave(_ router: String) async throws -> String
    /// The ePSKc journal after `sequence`, oldest first (at most `limit` events).
    func epskcJournal(since sequence: Int64, limit: Int) async throws -> [EpskcWatchEvent]
}

/// The mesh and the doctor.
public protocol DiagnosticsCore: Sendable {
    /// The mesh around `router`, read fresh from its agent.
    func mesh(_ router: String) async throws -> MeshView
    /// The mesh around `router` drawn as SVG.
    func meshPicture(_ router: String) async throws -> [UInt8]
    /// The doctor's checks of `router` and this host.
    func doctor(_ router: String) async throws -> DoctorReport
}

/// Structures: their routers, rooms, network directory and internet-access policy.
public protocol StructureCore: Sendable {
    /// Every structure, sorted by name.
    func structureViews() async throws -> [StructureView]
    func structureView(_ name: String) async throws -> StructureView
    func createStructure(named name: String) async throws -> StructureView
    func deleteStructure(_ name: String) async throws
    /// The structure after `router` joined it (`add`) or left it.
    func changeRouters(of name: String, router: String, add: Bool) async throws -> StructureView
    /// The rooms of structure `name`, sorted, after adding or removing one (neither: as they are).
    func rooms(of name: String, adding: String?, removing: String?) async throws -> [String]
    /// The structure's network directory.
    func networks(of name: String) async throws -> [NetworkEntry]
    func policy(of name: String) async throws -> PolicyView
    /// Sets the internet-access option (its spelling: `none`, `all`, `nat64Only`…, or tbrctl's words
    /// `nat64-only`, `dhcpv6-pd-only`) and answers once
    /// the routers' statuses are about it.
    func setPolicy(of name: String, option: String) async throws -> PolicyView
}

/// Matter nodes and commissioning.
public protocol MatterCore: Sendable {
    func matterNodes(of name: String) async throws -> [MatterNodeView]
    /// Checks every code and option, opens a session, queues the codes and completes the session in the
    /// background (each stage is a ``CoreEvent/commissioning(_:)``); answers once they are queued.
    func startCommissioning(into name: String, _ order: CommissioningOrder) async throws -> CommissioningStarted
    func cancelCommissioning(in name: String, session: String) async throws -> String
}

/// The HTTPS API's tokens.
public protocol TokenCore: Sendable {
    /// Who `authorization` (`Bearer TOKEN`) is, or nil (a client failing again and again is slowed down).
    func authenticate(_ authorization: String?, client: String) async -> APIPrincipal?
    /// Whether `authorization` holds a valid token: checked on a connection's head, before its body.
    func admits(_ authorization: String?) async -> Bool
}

/// The calls in flight and what happens.
public protocol CoreLifecycle: Sendable {
    /// Runs one call of any adapter: refused with `unavailable` once tbrd is stopping; a stopping tbrd
    /// waits for the calls it admitted.
    func serving<T: Sendable>(_ body: () async throws -> T) async throws -> T
    /// What happens from now on, through a stream holding at most `bufferLimit` events not yet taken
    /// (more are dropped for that subscriber and counted).
    func events(bufferLimit: Int) -> EventStream<CoreEvent>
}

/// All of the core, as an adapter takes it: one service per concern, each owning its state.
public struct Core: Sendable {
    public let routers: any RouterCore
    public let diagnostics: any DiagnosticsCore
    public let structures: any StructureCore
    public let matter: any MatterCore
    public let tokens: any TokenCore
    public let lifecycle: any CoreLifecycle
    public let backups: any BackupCore
    public let recovery: any RecoveryCore
    public let health: any HealthCore

    /// The core made of these services.
    public init(
        routers: any RouterCore, diagnostics: any DiagnosticsCore, structures: any StructureCore, matter: any MatterCore,
        tokens: any TokenCore, lifecycle: any CoreLifecycle, backups: any BackupCore, recovery: any RecoveryCore, health: any HealthCore
    ) {
        self.routers = routers
        self.diagnostics = diagnostics
        self.structures = structures
        self.matter = matter
        self.tokens = tokens
        self.lifecycle = lifecycle
        self.backups = backups
        self.recovery = recovery
        self.health = health
    }
}
