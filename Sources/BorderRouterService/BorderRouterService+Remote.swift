public import TBRFoundation
public import RouterFleet
import InternetAccessPolicy
import MatterCommissioning
package import MeshCoP
public import DeviceModel
package import HTTP
package import OpenThreadREST

/// Border routers on other hosts, reached through their otbr-agent's REST API (issue 21). An admin adds
/// them (tbrd never adds one by itself); they are polled for their presence, and otherwise managed like
/// the agents on this host's bus, except for what REST cannot do (the internet-access policy, the
/// capabilities, the version, telemetry).
extension BorderRouterService {
    /// How router `id`'s agent is reached; nil for an unknown router.
    public func transport(of id: DeviceID) -> RouterTransport? { routers[id]?.channel.transport }

    /// Checks that an otbr-agent's REST API answers at `url` and reads its Border Agent ID, bounded by the
    /// configuration's `restTimeout`.
    /// - Throws: ``OpenThreadREST/RESTAgentError``: `unreachable`/`timedOut` when nothing answers,
    ///   `notAnAgent` saying what answered instead.
    package nonisolated func identifyRESTAgent(at url: HTTPURL) async throws(RESTAgentError) -> RESTAgent.Identity {
        try await restAgent(url).identify()
    }

    /// Adds router `id`, reached through the REST API at `url` (at start, the ones the store remembers),
    /// whose Border Agent ID was last read as `borderAgentID`. It is offline until its first poll answers.
    /// - Throws: ``DeviceModel/HomeError`` `invalidState` when a router already has this id or URL.
    package func addRemoteRouter(_ id: DeviceID, url: HTTPURL, borderAgentID: BorderAgentID?) throws(HomeError) {
        if let existing = routers[id] {
            throw HomeError(.invalidState, "there is already a border router \(id) (\(existing.channel.address))")
        }
        if let same = routers.values.first(where: { $0.channel.transport == .rest && $0.channel.address == url.description }) {
            throw HomeError(.invalidState, "the otbr-agent at \(url) is already border router \(same.deviceID)")
        }
        let channel = RESTChannel(
            rest: restAgent(url), timing: RESTTiming(pollInterval: configuration.restPollInterval, networkTimeout: configuration.agentNetworkTimeout),
            clock: clock, logger: logger.child("rest"))
        let router = add(id, interfaceName: nil, channel: channel)
        if let borderAgentID { router.summaryCell.update { $0.borderAgentID = borderAgentID } }
        logger.info("border router on another host added", [("router", id.rawValue), ("url", url.description)])
    }

    /// Removes router `id`, one on another host: its polling stops, an open ePSKc session is left to end
    /// by itself on the agent (nothing is reported for it any more), and it is forgotten.
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for an unknown router, `invalidArgument` for one on
    ///   this host's bus (those come and go with their agents).
    public func removeRemoteRouter(_ id: DeviceID) throws(HomeError) {
        guard let router = routers[id] else { throw HomeError(.notFound, "there is no border router with the id \(id)") }
        guard router.channel.transport == .rest else {
            throw HomeError(
                .invalidArgument, "\(id) is an otbr-agent on this host's bus; tbrd follows it as long as it runs and cannot remove it")
        }
        routers[id] = nil
        routerChannels.withLock { $0[id] = nil }
        router.remove()
        registryBroadcaster.publish(.removed(id))
        logger.info("border router on another host removed", [("router", id.rawValue)])
    }

    /// Router `id`'s active or pending dataset as its agent holds it; nil when it has none.
    /// - Throws: ``DeviceModel/HomeError``: `notFound`, `unavailable` when the agent does not answer.
    public func datasetTLVs(of id: DeviceID, pending: Bool) async throws(HomeError) -> [UInt8]? {
        guard let router = routers[id] else { throw HomeError(.notFound, "there is no border router with the id \(id)") }
        let what = pending ? "reading the pending dataset" : "reading the active dataset"
        do { return try await router.channel.datasetTLVs(pending: pending) } catch { throw error.homeError(what, on: id) }
    }

    private nonisolated func restAgent(_ url: HTTPURL) -> RESTAgent {
        RESTAgent(base: url, http: HTTPClient(timeout: configuration.restTimeout))
    }
}
