public import TBRFoundation

/// An ePSKc session event: started or ended. Both kinds travel in one stream so their order is kept.
public enum EpskcEvent: Hashable, Sendable, Codable {
    /// A session started.
    case activated(ThreadNetworkManagementTrait.EpskcModeActivatedEvent)
    /// A session ended.
    case deactivated(ThreadNetworkManagementTrait.EpskcModeDeactivatedEvent)

    /// The router.
    public var deviceID: DeviceID {
        switch self {
        case .activated(let e): e.deviceID
        case .deactivated(let e): e.deviceID
        }
    }

    /// The session.
    public var sessionID: EpskcSessionID {
        switch self {
        case .activated(let e): e.sessionID
        case .deactivated(let e): e.sessionID
        }
    }

    /// The journal's sequence number, if a journal recorded the event.
    public var sequenceNumber: UInt64? {
        get {
            switch self {
            case .activated(let e): e.sequenceNumber
            case .deactivated(let e): e.sequenceNumber
            }
        }
        set {
            switch self {
            case .activated(var e):
                e.sequenceNumber = newValue
                self = .activated(e)
            case .deactivated(var e):
                e.sequenceNumber = newValue
                self = .deactivated(e)
            }
        }
    }

    /// The start event, if this is one.
    public var activated: ThreadNetworkManagementTrait.EpskcModeActivatedEvent? {
        if case .activated(let e) = self { e } else { nil }
    }

    /// The end event, if this is one.
    public var deactivated: ThreadNetworkManagementTrait.EpskcModeDeactivatedEvent? {
        if case .deactivated(let e) = self { e } else { nil }
    }
}
