package import DeviceModel
package import MatterCommissioner
package import MatterOnboarding
package import MeshCoP

/// One payload of one session.
package struct PayloadRef: Hashable, Sendable, CustomStringConvertible {
    package var session: CommissioningSessionID
    package var payloadID: String
    package var description: String { "\(session)/\(payloadID)" }
}

/// Someone waiting in `CompleteMatterCommissioning` for a session's outcomes.
package typealias CompletionWaiter = UInt64

/// What ``CommissioningSessionMachine`` asks its driver (``CommissioningCoordinator``) to do. The
/// machine decides; the driver carries the directives out in order and feeds each result back.
package enum CommissioningDirective: Hashable, Sendable {
    /// Stream (and signal) this stage of a payload.
    case publish(CommissioningProgress)
    /// Read the active dataset of `network` now from an online border router of `structure` on that
    /// network, then feed ``CommissioningSessionMachine/datasetRead(_:_:now:wall:)``.
    case readDataset(PayloadRef, network: ExtendedPANID, structure: StructureID)
    /// Hand `dataset` to the commissioner, then feed ``CommissioningSessionMachine/credentialsHandedOver(_:error:now:wall:)``.
    case handOverCredentials(PayloadRef, OperationalDataset)
    /// Ask the commissioner to commission the device, feeding its progress to
    /// ``CommissioningSessionMachine/progressed(_:_:now:wall:)`` and its end to
    /// ``CommissioningSessionMachine/commissioned(_:_:now:wall:)``.
    case commission(PayloadRef, CommissioningRequest)
    /// Record the node, then feed ``CommissioningSessionMachine/recorded(_:error:now:wall:)``.
    case recordNode(PayloadRef, RecordedMatterNode)
    /// Write `label` to the node's NodeLabel, then feed ``CommissioningSessionMachine/labelWritten(_:error:now:wall:)``.
    case writeLabel(PayloadRef, NodeID, label: String)
    /// Answer a `complete` call with the session's outcomes.
    case answer(CompletionWaiter, [CommissioningOutcome])
    /// A session ended (completed, cancelled or expired, its payloads all finished), for the log.
    case sessionEnded(CommissioningSessionID, StructureID, reason: String)
    /// Call ``CommissioningSessionMachine/timerFired(now:wall:)`` at this instant; replaces any earlier wake-up.
    case wake(at: ContinuousClock.Instant)
    /// No session is open: no timer.
    case cancelWake
}
