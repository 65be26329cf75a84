import BorderAgentDiscovery
import BorderRouterService
import DTLS
package import EpskcCommissioner
import MeshCoP
package import TBRCore
import TBRFoundation

// tbrd as the ePSKc commissioner (issue 31): the session runs in tbrd's process (EpskcCommissioner); mDNS
// is the browse tbrd follows anyway (BorderAgentsSeen); a fetched network goes into a structure's directory.

extension CoreStructures {
    /// The longest wait a caller may ask for.
    package static let fetchTimeoutLimit: UInt32 = 600

    /// Fetches the Active dataset of the border agent `from` names with `keyText`; with `structure`
    /// non-empty, stores it in that structure's network directory.
    /// - Returns: the dataset's TLVs and where they came from.
    /// - Throws: `InvalidArgument` (a malformed key, an incomplete dataset), `Ambiguous` (several agents
    ///   and no `from`), `Unavailable` (nothing listens, no answer, no such agent), `PermissionDenied` (the
    ///   router rejected the key), `Failed` (the router refused).
    package func fetchNetworkCredentials(key keyText: String, from: String, structure: String, timeoutSeconds: UInt32)
        async throws -> (tlvs: [UInt8], source: FetchSource)
    {
        let key: EphemeralKey
        do { key = try EphemeralKey(typed: keyText) } catch {
            throw ServiceError.invalid("the key: \(error); nothing was sent to the router")
        }
        guard (1...Self.fetchTimeoutLimit).contains(timeoutSeconds) else {
            throw ServiceError.invalid("a timeout is 1 to \(Self.fetchTimeoutLimit) s")
        }
        // Before the key is spent: an unknown structure is refused here.
        if !structure.isEmpty { _ = try await self.structure(named: structure) }
        var target = FetchTarget(parsing: from.isEmpty ? nil : from)
        if case .instance(let name) = target, let id = await service.resolveRouter(name),
            let agentID = await service.routerSummaries().first(where: { $0.id == id })?.borderAgentID
        {
            target = .borderAgent(agentID, router: id.rawValue)
        }
        guard let agents = borderAgents.all ?? (target.isAddress ? [] : nil) else {
            throw CoreError(.unavailable, "tbrd does not see mDNS (is avahi-daemon running?); give from as [ADDR]:PORT")
        }
        let address: UDPAddress
        let source: FetchSource
        do { (address, source) = try target.resolve(in: agents) } catch {
            if case .several = error { throw CoreError(.ambiguous, error.description) }
            throw CoreError(.unavailable, error.description)
        }
        let fetched: FetchedDataset
        do { fetched = try await CredentialFetch.activeDataset(from: address, key: key, timeout: .seconds(Int64(timeoutSeconds))) } catch {
            logger.notice("credentials fetch failed", [("address", address.description), ("reason", Self.reasonWord(error))])
            throw CoreError(Self.condition(error), error.description)
        }
        logger.notice(
            "credentials fetched with an ePSKc",
            [("address", address.description), ("instance", Quoted.sanitized(source.instance ?? "", limit: 80))])
        if !structure.isEmpty {
            try await storeFetchedNetwork(fetched.tlvs, source: source, inStructure: structure)
        }
        return (fetched.tlvs, source)
    }

    /// The core condition of each way a fetch fails (tbrctl maps them to the exit statuses of its own fetch).
    package static func condition(_ error: CredentialFetchError) -> CoreError.Condition {
        switch error {
        case .wrongKey: .permissionDenied
        case .nothingListening, .noAnswer: .unavailable
        case .incompleteDataset, .badAnswer: .invalidArgument
        case .refused, .session, .cancelled: .failed
        }
    }

    /// One word for the log (never the key).
    package static func reasonWord(_ error: CredentialFetchError) -> String {
        switch error {
        case .wrongKey: "wrong-key"
        case .nothingListening: "nothing-listening"
        case .noAnswer: "no-answer"
        case .refused: "refused"
        case .badAnswer: "bad-answer"
        case .incompleteDataset: "incomplete-dataset"
        case .session: "session-failed"
        case .cancelled: "cancelled"
        }
    }
}
