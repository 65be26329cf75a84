import OpenThreadBR

/// The ePSKc events OpenThread's history tracker records (`otHistoryTrackerBorderAgentEpskcEvent`), and
/// how OTBR's telemetry turns them into journeys (ot-br-posix
/// `telemetry_retriever_border_agent.cpp`): each read returns the journeys *completed* since the
/// previous read, once, and leaves an unfinished journey for a later read.
struct EpskcHistory: Sendable {
    /// One recorded event.
    enum Event: Equatable, Sendable {
        case activated, connected, petitioned, retrievedActiveDataset, retrievedPendingDataset, keepAlive
        case deactivated(EpskcDeactivationReason)

        var isDeactivation: Bool { if case .deactivated = self { true } else { false } }
    }

    /// The most events kept; older ones are forgotten, as in the tracker's ring buffer.
    static let capacity = 64

    private(set) var events: [(event: Event, at: UInt32)] = []
    /// How many of ``events`` (counted from the oldest still kept) have been reported.
    private var reported = 0

    /// Records `event` at `at` ms of uptime.
    mutating func record(_ event: Event, at: UInt32) {
        events.append((event, at))
        if events.count > Self.capacity {
            events.removeFirst()
            reported = max(0, reported - 1)
        }
    }

    /// The journeys completed since the last call, oldest first; marks them reported.
    mutating func retrieveCompletedJourneys() -> [EpskcJourney] {
        let unreported = events[reported...]
        guard let lastEnd = unreported.lastIndex(where: { $0.event.isDeactivation }) else { return [] }
        var journeys: [EpskcJourney] = []
        var current: EpskcJourney?
        for (event, at) in events[reported...lastEnd] {
            var journey = current ?? EpskcJourney()
            switch event {
            case .activated: journey.activated = at
            case .connected: journey.connected = at
            case .petitioned: journey.petitioned = at
            case .retrievedActiveDataset: journey.retrievedActiveDataset = at
            case .retrievedPendingDataset: journey.retrievedPendingDataset = at
            case .keepAlive: journey.keepAlive = at
            case .deactivated(let reason):
                journey.deactivationReason = reason
                journey.deactivated = at
            }
            if event.isDeactivation {
                journeys.append(journey)
                current = nil
            } else {
                current = journey
            }
        }
        reported = lastEnd + 1
        return journeys
    }
}
