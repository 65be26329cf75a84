public import TBRFoundation
/// Manages a border router's Thread network: ePSKc for credential sharing, joining and leaving
/// networks, and the network it is on (Google Home API `ThreadNetworkManagementTrait`).
///
/// ```swift
/// let mgmt = br.traits(ThreadNetworkManagementTrait.self)!
/// if mgmt.supports(.activateEpskcMode) {
///     let r = try await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 300))
/// }
/// for await e in mgmt.epskcModeDeactivatedEvent.stream() { print(e.reason) }
/// ```
public struct ThreadNetworkManagementTrait: Trait {
    /// The identifier, `ThreadNetworkManagement`.
    public static var identifier: String { "ThreadNetworkManagement" }

    /// The trait's commands, for ``supports(_:)``.
    public enum Command: String, Hashable, Sendable, Codable, CaseIterable {
        /// ``ThreadNetworkManagementTrait/activateEpskcMode(_:)``.
        case activateEpskcMode
        /// ``ThreadNetworkManagementTrait/deactivateEpskcMode(retainActiveSession:)``.
        case deactivateEpskcMode
        /// ``ThreadNetworkManagementTrait/joinNetwork(_:)``.
        case joinNetwork
        /// ``ThreadNetworkManagementTrait/leaveNetwork()``.
        case leaveNetwork
    }

    private let backend: any BorderRouterBackend

    /// The trait of the router behind `backend`.
    public init(backend: any BorderRouterBackend) { self.backend = backend }

    /// Whether the router supports `command`, as it last said (no I/O). A router without ePSKc
    /// answers false for the ePSKc commands before any call is made.
    public func supports(_ command: Command) -> Bool {
        let support = backend.support
        switch command {
        case .activateEpskcMode, .deactivateEpskcMode: return support.epskc
        case .joinNetwork, .leaveNetwork: return support.networkManagement
        }
    }

    /// The Thread network the router is on, nil when it has none (otbr-agent: its active dataset).
    public var networkInfo: Attribute<NetworkInfo?> {
        let backend = self.backend
        return Attribute(
            name: "networkInfo", isSupported: { backend.support.networkManagement },
            read: { () async throws(HomeError) -> NetworkInfo? in try await backend.networkInfo() },
            stream: { backend.networkInfoUpdates() })
    }

    /// Starts ePSKc mode: the router listens for a commissioner that knows the returned key, for the
    /// requested duration (default 120 s, 1…600 s). The request is checked before the router is asked.
    /// Every failure is a status of the response: `busy` (a key is already active), `notSupported`,
    /// `invalidState`, `invalidArgument`, `failed`. The key is given to this caller only.
    public func activateEpskcMode(_ request: ActivateEpskcModeRequest = ActivateEpskcModeRequest()) async
        -> ActivateEpskcModeResponse
    {
        await backend.activateEpskcMode(request)
    }

    /// Ends ePSKc mode now; an active session ends with reason `cancelled`. Succeeds when no key is active.
    /// - Parameter retainActiveSession: let a commissioner already connected with the key keep its
    ///   session (otbr-agent then ends the key when it disconnects, and the end is reported then).
    /// - Throws: ``HomeError``: `notSupported` without ePSKc, `unavailable` when the router is offline.
    public func deactivateEpskcMode(retainActiveSession: Bool = false) async throws(HomeError) {
        try await backend.deactivateEpskcMode(retainActiveSession: retainActiveSession)
    }

    /// Joins the network of `request`'s dataset, which is validated first (a bad one changes nothing).
    /// Already on that network: success, nothing changes. On another network: the whole mesh moves
    /// (unless the request says this router only), after the delay the response reports.
    public func joinNetwork(_ request: JoinNetworkRequest) async -> JoinNetworkResponse {
        await backend.joinNetwork(request)
    }

    /// Leaves the network and forgets it. otbr-agent restarts itself; this returns when it is back.
    /// - Throws: ``HomeError``.
    public func leaveNetwork() async throws(HomeError) { try await backend.leaveNetwork() }

    /// An ePSKc session started (ours: Google's trait has no such event).
    public var epskcModeActivatedEvent: TraitEvent<EpskcModeActivatedEvent> {
        let backend = self.backend
        return TraitEvent(name: "epskcModeActivatedEvent", isSupported: { backend.support.epskc }) { limit in
            backend.epskcEvents(bufferLimit: limit) { if case .activated(let e) = $0 { e } else { nil } }
        }
    }

    /// An ePSKc session ended, with the reason, exactly once per session.
    public var epskcModeDeactivatedEvent: TraitEvent<EpskcModeDeactivatedEvent> {
        let backend = self.backend
        return TraitEvent(name: "epskcModeDeactivatedEvent", isSupported: { backend.support.epskc }) { limit in
            backend.epskcEvents(bufferLimit: limit) { if case .deactivated(let e) = $0 { e } else { nil } }
        }
    }

    /// Both ePSKc events in one stream, in order.
    public func epskcEvents(bufferLimit: Int = TraitEvent<EpskcEvent>.defaultBufferLimit) -> EventStream<EpskcEvent> {
        backend.epskcEvents(bufferLimit: bufferLimit) { $0 }
    }
}
