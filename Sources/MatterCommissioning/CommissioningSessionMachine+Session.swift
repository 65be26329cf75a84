import DeviceModel
import MatterCommissioner
import MatterOnboarding
import MeshCoP
import TBRFoundation

/// What the machine keeps of a session and its payloads.
extension CommissioningSessionMachine {
    /// Where a session is in its life.
    package enum SessionState: Hashable, Sendable {
        /// Takes payloads.
        case open
        /// `complete` was called: no more payloads; answers when all have finished.
        case completing
        /// Cancelled or expired: the payload in flight finishes, then the session ends.
        case ending(reason: String)
    }

    /// One payload of a session.
    package struct Payload: Hashable, Sendable {
        var id: String
        var payload: SetupPayload
        /// The code for the commissioner (a secret), dropped once the payload is handed over.
        var code: String?
        var options: CommissioningOptions
        /// The network chosen when it was queued.
        var network: ExtendedPANID
        /// Its place in the queue across every session.
        var order: UInt64
        /// The last stage reported.
        var stage: CommissioningStage
        var nodeID: NodeID?
        var vendorID: UInt16?
        var productID: UInt16?
        var outcome: CommissioningOutcome?
    }

    /// One session.
    package struct Session: Hashable, Sendable {
        var id: CommissioningSessionID
        var structure: StructureID
        var structureName: String
        var expiresAt: Instant
        var state: SessionState
        var payloads: [Payload] = []
        var waiters: [CompletionWaiter] = []

        var isSettled: Bool { payloads.allSatisfy { $0.outcome != nil } }
        var outcomes: [CommissioningOutcome] { payloads.compactMap(\.outcome) }
    }
}
