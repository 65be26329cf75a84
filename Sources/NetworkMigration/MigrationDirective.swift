package import MeshCoP
package import TBRDocuments

/// What ``MigrationMachine`` asks its driver (tbrd's migration service) to do. The machine decides; the
/// driver carries each directive out and feeds what it learns back to the handler the directive names,
/// then carries out the directives that handler returns.
package enum MigrationDirective: Hashable, Sendable {
    /// Send `dataset` to `router` as its pending dataset, asking for a delay of `delayMs`; feed back
    /// ``MigrationMachine/sent(router:delayMs:pendingTimestamp:now:)`` or
    /// ``MigrationMachine/notSent(router:reason:now:)``.
    case send(router: String, dataset: OperationalDataset, delayMs: UInt32)
    /// Read `router`'s active dataset for a cancel; feed back ``MigrationMachine/cancelRead(router:active:now:)``.
    case readForCancel(router: String)
    /// Send `dataset` (the router's current network, newer) as `router`'s pending dataset with the shortest
    /// delay; feed back ``MigrationMachine/cancelSent(router:now:)`` or ``MigrationMachine/cancelNotSent(router:reason:now:)``.
    case sendCancel(router: String, dataset: OperationalDataset)
    /// Read where `router` is now (online or not, its active and pending datasets); feed back
    /// ``MigrationMachine/routerRead(router:startedAt:online:active:pending:now:)``.
    case read(router: String, startedAt: Double)
    /// Follow `router`'s network, feeding each change to
    /// ``MigrationMachine/networkSeen(router:startedAt:extPanId:channel:now:)``, for as long as
    /// ``MigrationMachine/follows(router:startedAt:)`` says.
    case follow(router: String, startedAt: Double)
    /// Keep `migration` (the store's record; `running` holds the structure's lock) and publish it.
    case record(Migration, running: Bool)
    /// Call ``MigrationMachine/timerFired(now:)`` at wall time `at` (seconds since the Unix epoch);
    /// replaces any earlier wake-up.
    case wake(at: Double)
    /// Nothing is due: no timer until the next input.
    case cancelWake
}
