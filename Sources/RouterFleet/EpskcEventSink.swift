public import DeviceModel

/// Where ePSKc events are journalled before anyone else hears of them (tbrd's store).
///
/// The service awaits ``journal(_:restoreRecord:)`` for each event, in order per router, and only then
/// yields the event to streams, carrying the sequence number the journal returned. A script that
/// replays the journal from a sequence number therefore never misses an event it could have streamed.
public protocol EpskcEventSink: Sendable {
    /// Records `event` and returns its sequence number (nil when the journal does not number events).
    /// - Parameter restoreRecord: for an activation, what to keep to recover the session after a
    ///   restart (``BorderRouterService/restoreEpskcSession(_:)``); nil for an end.
    /// - Throws: when the event could not be recorded (a full disk). The service then does not stream
    ///   it: an activation is withdrawn from the router and refused to its caller; an end is kept in
    ///   memory and offered again (1 s, doubling, at most 30 s, and before any later event of the
    ///   router), and streamed once recorded. If the service stops first, the journal still shows the
    ///   session open, and a restarted service closes it from the agent's state.
    func journal(_ event: EpskcEvent, restoreRecord: EpskcSessionRecord?) async throws -> UInt64?
}

/// No journal: events are not numbered and are streamed at once (a service without a state database,
/// as in tests and `tbrctl` without tbrd). The default sink of ``BorderRouterService``.
public struct NoEventJournal: EpskcEventSink {
    /// The sink that records nothing.
    public init() {}

    /// Records nothing and gives no sequence number.
    public func journal(_ event: EpskcEvent, restoreRecord: EpskcSessionRecord?) async throws -> UInt64? { nil }
}
