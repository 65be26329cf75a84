public import MeshCoP

extension ThreadNetworkManagementTrait {
    /// The `activateEpskcMode` request.
    public struct ActivateEpskcModeRequest: Hashable, Sendable, Codable {
        /// The duration used when the request names none: 120 s (otbr-agent's default).
        public static let defaultDurationSeconds = 120
        /// The durations accepted: 1…600 s (otbr-agent's maximum is 10 minutes).
        public static let durationRange: ClosedRange<Int> = 1...600

        /// How long the key should be valid, in seconds; nil for the default.
        public var requestedDurationSeconds: Int?

        /// A request for `requestedDurationSeconds` (nil: the default of 120 s).
        public init(requestedDurationSeconds: Int? = nil) { self.requestedDurationSeconds = requestedDurationSeconds }

        /// The duration to ask the router for.
        /// - Throws: ``HomeError`` `invalidArgument` when it is outside 1…600 s.
        public func validatedDurationSeconds() throws(HomeError) -> Int {
            let seconds = requestedDurationSeconds ?? Self.defaultDurationSeconds
            guard Self.durationRange.contains(seconds) else {
                throw HomeError(
                    .invalidArgument,
                    "an ePSKc duration must be \(Self.durationRange.lowerBound)…\(Self.durationRange.upperBound) seconds, not \(seconds)")
            }
            return seconds
        }
    }

    /// How `activateEpskcMode` went (ours: Google publishes no values).
    public enum ActivateEpskcModeStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// The key is active.
        case success
        /// A key is already active on the router.
        case busy
        /// The router has no ePSKc (built without it, or the feature is off).
        case notSupported
        /// The router is not in a state to start a key (for example not attached, if it says so).
        case invalidState
        /// The request is wrong (a duration outside 1…600 s).
        case invalidArgument
        /// Anything else, including a router that cannot be reached; see the message.
        case failed
    }

    /// The `activateEpskcMode` response.
    public struct ActivateEpskcModeResponse: Hashable, Sendable, Codable {
        /// How it went.
        public var status: ActivateEpskcModeStatus
        /// The key, on success. Give it to the commissioner; never log or store it.
        public var epskc: EphemeralKey?
        /// How long the key is valid as the router granted it, in seconds (0 unless success).
        public var validDurationSeconds: Int
        /// The session the key belongs to, on success; its events carry the same id.
        public var sessionID: EpskcSessionID?
        /// Why it failed, as a sentence (nil on success).
        public var message: String?

        /// A response as given.
        public init(
            status: ActivateEpskcModeStatus, epskc: EphemeralKey? = nil, validDurationSeconds: Int = 0,
            sessionID: EpskcSessionID? = nil, message: String? = nil
        ) {
            self.status = status
            self.epskc = epskc
            self.validDurationSeconds = validDurationSeconds
            self.sessionID = sessionID
            self.message = message
        }

        /// A failure with `status` and `message`.
        public static func failure(_ status: ActivateEpskcModeStatus, _ message: String) -> Self {
            Self(status: status, message: message)
        }
    }
}
