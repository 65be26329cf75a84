import TBRDocuments
import OpenThreadBR
import TBRCommandLine
import TBRFoundation

/// What the device commands need from whoever manages the border routers: tbrd over its D-Bus API
/// (``TbrdBackend``), or otbr-agent directly through an in-process service (``DirectBackend``).
///
/// Commands get one from ``RouterSession/withBackend(_:_:)`` and never ask which it is, except to say
/// so. Every method throws ``ControlError`` (its exit status and one sentence), or ``UsageError`` when
/// a router must be chosen with `-d`.
protocol RouterBackend: Sendable {
    /// Every border router known, sorted by id.
    func routers() async throws -> [RouterListing]

    /// The router `text` names (a router id, an interface name or a Border Agent ID), or the only router
    /// when `text` is nil.
    /// - Throws: ``ControlError`` 1 for an unknown router, 69 when there is none; ``UsageError`` when
    ///   there are several and `text` is nil.
    func resolve(_ text: String?) async throws -> RouterRef

    /// Basic information, capabilities and network of `router`.
    func info(of router: RouterRef) async throws -> RouterInfo

    /// Starts an ePSKc on `router` for `seconds` (nil: the default, 120 s). Non-success statuses are
    /// returned, not thrown.
    func activateEpskc(on router: RouterRef, seconds: Int?) async throws -> EpskcActivation

    /// Ends the ePSKc of `router`; with `retainSession` a commissioner already connected keeps its session.
    func deactivateEpskc(on router: RouterRef, retainSession: Bool) async throws

    /// Joins `router` (and, when it is on another network, its whole mesh) to the network of `tlvs`.
    /// Non-success statuses are returned, not thrown.
    func joinNetwork(on router: RouterRef, tlvs: [UInt8], thisRouterOnly: Bool) async throws -> JoinResult

    /// Makes `router` leave and forget its network; returns when its otbr-agent is back.
    func leaveNetwork(on router: RouterRef) async throws

    /// The mesh around `router`: its partition, network data and every node it knows, read fresh.
    func meshTopology(of router: RouterRef) async throws -> MeshTopology

    /// `router`'s energy scan: the strongest energy per channel, `duration` on each.
    /// - Throws: ``ControlError``; ``EnergyScanUnsupported`` where the agent has no scan (REST).
    func energyScan(on router: RouterRef, duration: Duration) async throws -> [EnergyReading]

    /// The active (or pending) dataset of `router` as TLVs; nil when it has none.
    func dataset(of router: RouterRef, pending: Bool) async throws -> [UInt8]?

    /// Follows ePSKc events of `router` (every router when nil), replaying those after sequence `since`
    /// first when given, and calls `onEvent` for each in order until it returns false.
    /// - Throws: ``ControlError`` when events cannot be followed (69 when `since` needs tbrd's journal).
    func watchEpskc(
        router: RouterRef?, since: UInt64?, notes: CommandContext, onEvent: (EpskcWatchEvent) throws -> Bool
    ) async throws
}

/// A border router chosen on the command line: its id, and where tbrd serves it.
struct RouterRef: Sendable, Hashable {
    /// The router id (`wpan0`).
    var id: String
    /// The router's object path in tbrd (`/io/tbrd/router/wpan0`); nil in direct mode.
    var path: String?
    /// Whether tbrd confirmed `id` and `path`; false for a name from the command line taken as an id
    /// until a call shows otherwise (``TbrdBackend/onRouter(_:_:)``).
    var isVerified = true
}

/// tbrd is not on the bus: its first call on a connection got `ServiceUnknown`, so nothing was done
/// through it and the command may go to otbr-agent directly (``RouterSession``).
struct TbrdNotRunning: Error {}

/// Whether tbrd has answered on one connection: once it has, a later `ServiceUnknown` means it left
/// mid-command (an error), not that it was never there.
final class TbrdPresence: Sendable {
    private let confirmed = Locked(false)
    /// tbrd answered a call.
    func confirm() { confirmed.withLock { $0 = true } }
    /// Whether it has.
    var isConfirmed: Bool { confirmed.withLock { $0 } }
}

/// Choosing a router among those known, the same way in both modes.
enum RouterChoice {
    /// The only router of `ids`.
    /// - Throws: ``ControlError`` 69 when there is none (`nobody` says why), ``UsageError`` naming them
    ///   when there are several.
    static func only(of ids: [String], nobody: String) throws -> String {
        switch ids.count {
        case 0: throw ControlError.unavailable(nobody)
        case 1: return ids[0]
        default:
            throw UsageError(
                "there are \(ids.count) border routers (\(ids.joined(separator: ", "))); choose one with -d ROUTER")
        }
    }

    /// The error for a router name nothing matches.
    static func unknown(_ text: String, known ids: [String]) -> ControlError {
        let known = ids.isEmpty ? "none is known" : "known: \(ids.joined(separator: ", "))"
        return .failure("no border router named \(Quoted(text)) (\(known))")
    }
}
