public import TBRFoundation

extension ThreadNetworkManagementTrait {
    /// An ePSKc session started on a router.
    public struct EpskcModeActivatedEvent: Hashable, Sendable, Codable {
        /// The router.
        public var deviceID: DeviceID
        /// The session; the end event carries the same id.
        public var sessionID: EpskcSessionID
        /// When the router granted the key (the reply to the activation arrived).
        public var activatedAt: WallTime
        /// How long the key is valid, in seconds.
        public var validDurationSeconds: Int
        /// When the key's lifetime runs out: `activatedAt` + `validDurationSeconds`.
        public var expiresAt: WallTime
        /// The journal's sequence number, when a journal recorded the event before it was streamed.
        public var sequenceNumber: UInt64?

        /// An event as given.
        public init(
            deviceID: DeviceID, sessionID: EpskcSessionID, activatedAt: WallTime, validDurationSeconds: Int,
            sequenceNumber: UInt64? = nil
        ) {
            self.deviceID = deviceID
            self.sessionID = sessionID
            self.activatedAt = activatedAt
            self.validDurationSeconds = validDurationSeconds
            self.expiresAt = activatedAt.advanced(by: .seconds(validDurationSeconds))
            self.sequenceNumber = sequenceNumber
        }
    }

    /// Why an ePSKc session ended (Google's `EpskcModeDeactivationReason`).
    public enum EpskcModeDeactivationReason: String, Hashable, Sendable, Codable, CaseIterable {
        /// Nothing says why; the detail may say more (`endedEarly`).
        case unspecified
        /// A commissioner used the key (the key is single use).
        case keyUsed
        /// The key's lifetime ran out.
        case expired
        /// It was stopped: deactivated, or ended after too many failed attempts (`tooManyAttempts`).
        case cancelled
    }

    /// More about why an ePSKc session ended.
    public enum EpskcModeDeactivationDetail: String, Hashable, Sendable, Codable, CaseIterable {
        /// Ten commissioners failed to connect with the key, and the router stopped it (`cancelled`).
        case tooManyAttempts
        /// The key ended before its deadline and nothing says why (`unspecified`).
        case endedEarly
    }

    /// How the end of an ePSKc session was noticed.
    public enum EpskcEndDetection: String, Hashable, Sendable, Codable, CaseIterable {
        /// The service's own `deactivateEpskcMode` ended it.
        case deactivateCall
        /// The router's telemetry (a completed journey or a counter) showed it.
        case telemetry
        /// The key's deadline passed.
        case deadline
        /// A new activation found the router without a key before the end was otherwise noticed.
        case newActivation
        /// The router's otbr-agent left the bus or restarted, which ends any key.
        case routerRestarted
        /// The router's `_meshcop-e._udp` service went away (mDNS).
        case serviceDiscovery
    }

    /// An ePSKc session ended on a router; reported exactly once per session.
    public struct EpskcModeDeactivatedEvent: Hashable, Sendable, Codable {
        /// The router.
        public var deviceID: DeviceID
        /// The session.
        public var sessionID: EpskcSessionID
        /// Why it ended.
        public var reason: EpskcModeDeactivationReason
        /// More about why, when known.
        public var detail: EpskcModeDeactivationDetail?
        /// When the session started.
        public var activatedAt: WallTime
        /// When it ended, as closely as known (see docs/device-model.md).
        public var deactivatedAt: WallTime
        /// When the end was noticed.
        public var detectedAt: WallTime
        /// How the end was noticed.
        public var detectedBy: EpskcEndDetection
        /// The journal's sequence number, when a journal recorded the event before it was streamed.
        public var sequenceNumber: UInt64?

        /// An event as given.
        public init(
            deviceID: DeviceID, sessionID: EpskcSessionID, reason: EpskcModeDeactivationReason,
            detail: EpskcModeDeactivationDetail? = nil, activatedAt: WallTime, deactivatedAt: WallTime,
            detectedAt: WallTime, detectedBy: EpskcEndDetection, sequenceNumber: UInt64? = nil
        ) {
            self.deviceID = deviceID
            self.sessionID = sessionID
            self.reason = reason
            self.detail = detail
            self.activatedAt = activatedAt
            self.deactivatedAt = deactivatedAt
            self.detectedAt = detectedAt
            self.detectedBy = detectedBy
            self.sequenceNumber = sequenceNumber
        }
    }
}

/// Identifies one ePSKc session: 16 random hex digits.
public struct EpskcSessionID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The id as text.
    public let rawValue: String

    /// The id `rawValue` (as journalled).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A new random id.
    public static func random() -> EpskcSessionID {
        var rng = SystemRandomNumberGenerator()
        let value: UInt64 = rng.next()
        let hex = String(value, radix: 16)
        return EpskcSessionID(rawValue: String(repeating: "0", count: 16 - hex.count) + hex)
    }

    public var description: String { rawValue }

    /// Decodes a JSON string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    /// Encodes as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
