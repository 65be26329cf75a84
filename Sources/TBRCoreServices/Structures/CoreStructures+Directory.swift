import BorderAgentDiscovery
package import BorderRouterService
package import EpskcCommissioner
package import MeshCoP
package import Store
import TBRCore
package import TBRDocuments
import TBRFoundation

// The network directory of each structure (issue 31): the networks of its routers' active datasets,
// of fetches and additions, and of other border agents' _meshcop._udp records. The credentials are
// kept in the state database (0600) and given to admins only.

extension CoreStructures {
    /// The directory of structure `id`, brought up to date with what its routers and mDNS show now.
    package func networkEntries(_ id: StructureID) async throws -> [NetworkEntry] {
        let directory = try await refreshedDirectory(id)
        return try await entries(id, directory.records, routersOn: directory.routersOn)
    }

    /// The credentials of network `xpan` in structure `id` as its routers hold them now (the directory
    /// brought up to date first: a channel change gives the network a newer dataset), nil when tbrd
    /// holds none.
    package func currentDataset(_ xpan: String, in id: StructureID) async throws -> [UInt8]? {
        try await refreshedDirectory(id).records.first { $0.extendedPANID == xpan }?.dataset
    }

    /// The store's entries after recording what the routers and mDNS show now, and which routers are on
    /// which network: one refresh (a dataset read per router) per call.
    private func refreshedDirectory(_ id: StructureID) async throws
        -> (records: [ThreadNetworkRecord], routersOn: [String: [String]])
    {
        let record = try PersistentStructureStore.recordID(id)
        let routersOn = try await refreshNetworks(id, record)
        return (try await storedNetworks(record), routersOn)
    }

    private func storedNetworks(_ record: StructureRecord.ID) async throws -> [ThreadNetworkRecord] {
        do { return try await store.networks(inStructure: record) } catch { throw ServiceError.core(error) }
    }

    private func entries(_ id: StructureID, _ records: [ThreadNetworkRecord], routersOn: [String: [String]]) async throws -> [NetworkEntry] {
        let preferred = try await structures.settings(of: id).defaultThreadNetworkId?.description
        return NetworkDirectory.entries(
            structure: try await info(id).name, records, routersOn: routersOn, preferred: preferred, now: clock.wallTime(),
            staleAfter: networkStaleAfter)
    }

    /// Records the networks of the structure's routers (with their credentials) and those other border
    /// agents advertise (without). Returns which routers are on which network.
    private func refreshNetworks(_ id: StructureID, _ structureRecord: StructureRecord.ID) async throws -> [String: [String]] {
        guard let info = try await structures.structure(id: id) else { throw ServiceError.missing("there is no structure \(id)") }
        var routersOn: [String: [String]] = [:]
        var ownAgents: Set<BorderAgentID> = []
        let summaries = await service.routerSummaries()
        for router in info.deviceIDs {
            if let agent = summaries.first(where: { $0.id == router })?.borderAgentID { ownAgents.insert(agent) }
            guard let tlvs = try? await service.datasetTLVs(of: router, pending: false), let dataset = try? OperationalDataset(bytes: tlvs),
                let xpan = dataset.extendedPANID
            else { continue }
            routersOn[xpan.description, default: []].append(router.rawValue)
            let complete = dataset.isValid(as: .active)
            try await record(Self.entry(dataset, complete ? tlvs : nil, .router, router.rawValue), structureRecord)
        }
        for agent in borderAgents.all ?? [] {
            guard let xpan = agent.txt.extendedPANID, let id = agent.txt.borderAgentID, !ownAgents.contains(id) else { continue }
            let entry = ThreadNetworkRecord(
                extendedPANID: xpan.description, networkName: agent.txt.networkName?.rawValue ?? "", source: .mdns,
                sourceDetail: agent.instanceName)
            try await record(entry, structureRecord)
        }
        return routersOn
    }

    private func record(_ entry: ThreadNetworkRecord, _ structure: StructureRecord.ID) async throws {
        do { try await store.recordNetwork(entry, in: structure) } catch { throw ServiceError.core(error) }
    }

    package static func entry(_ dataset: OperationalDataset, _ tlvs: [UInt8]?, _ source: ThreadNetworkRecord.Source, _ detail: String)
        -> ThreadNetworkRecord
    {
        ThreadNetworkRecord(
            extendedPANID: dataset.extendedPANID?.description ?? "", networkName: dataset.networkName?.rawValue ?? "",
            channel: dataset.channel.map { Int($0.number) }, activeTimestamp: dataset.activeTimestamp?.seconds, dataset: tlvs,
            source: source, sourceDetail: detail)
    }

    /// A complete Active dataset, checked, or InvalidArgument listing every problem.
    package static func completeDataset(_ tlvs: [UInt8]) throws -> OperationalDataset {
        let problems = OperationalDataset.validate(bytes: tlvs, as: .active)
        guard problems.isEmpty, let dataset = try? OperationalDataset(bytes: tlvs) else {
            throw ServiceError.invalid(
                "the dataset is not a valid complete Active dataset; nothing was stored:\n"
                    + problems.map { "  \($0)" }.joined(separator: "\n"))
        }
        return dataset
    }

    /// `AddNetwork`: the network of a complete Active dataset into the directory.
    package func addNetwork(_ id: StructureID, tlvs: [UInt8]) async throws -> String {
        let dataset = try Self.completeDataset(tlvs)
        let record = try PersistentStructureStore.recordID(id)
        try await self.record(Self.entry(dataset, tlvs, .added, ""), record)
        let xpan = dataset.extendedPANID?.description ?? ""
        logger.notice("network added to a structure's directory", [("structure", id.rawValue), ("ext_pan_id", xpan)])
        await signalNetworks(id)
        return xpan
    }

    /// Stores a network fetched with an ePSKc (FetchNetworkCredentials with a structure).
    package func storeFetchedNetwork(_ tlvs: [UInt8], source: FetchSource, inStructure name: String) async throws {
        let info = try await structure(named: name)
        let dataset = try Self.completeDataset(tlvs)
        let detail = [source.instance.map { "\"\($0)\"" }, source.address].compactMap { $0 }.joined(separator: " at ")
        try await record(Self.entry(dataset, tlvs, .fetched, detail), try PersistentStructureStore.recordID(info.id))
        await signalNetworks(info.id)
    }

    /// `RemoveNetwork`: refused while a router of the structure is on it; the credentials go with it.
    package func removeNetwork(_ id: StructureID, _ text: String) async throws {
        let xpan = try Self.extendedPANID(text)
        let directory = try await refreshedDirectory(id)
        let entries = try await entries(id, directory.records, routersOn: directory.routersOn)
        guard let row = entries.first(where: { $0.extPanId == xpan }) else {
            throw ServiceError.missing("the structure knows no network \(xpan) ('tbrctl network list' shows its networks)")
        }
        guard row.routers.isEmpty else {
            throw CoreError(
                .failed,
                "\(row.networkName.isEmpty ? xpan : "\(Quoted(row.networkName)) (\(xpan))") cannot be forgotten: "
                    + "the structure's router\(row.routers.count == 1 ? "" : "s") \(row.routers.joined(separator: ", ")) "
                    + "\(row.routers.count == 1 ? "is" : "are") on it")
        }
        do { try await store.forgetNetwork(xpan, in: try PersistentStructureStore.recordID(id)) } catch { throw ServiceError.core(error) }
        if row.preferred { try await update(id) { $0.defaultThreadNetworkId = nil } }
        logger.notice("network forgotten from a structure's directory", [("structure", id.rawValue), ("ext_pan_id", xpan)])
        await signalNetworks(id, routersOn: directory.routersOn)
    }

    /// `GetNetworkDataset`: the credentials tbrd holds for a network of the directory.
    package func networkDataset(_ id: StructureID, _ text: String) async throws -> [UInt8] {
        let xpan = try Self.extendedPANID(text)
        guard let found = try await refreshedDirectory(id).records.first(where: { $0.extendedPANID == xpan }) else {
            throw ServiceError.missing("the structure knows no network \(xpan) ('tbrctl network list' shows its networks)")
        }
        guard let tlvs = found.dataset else {
            throw ServiceError.missing(
                "tbrd does not hold the credentials of \(Quoted(found.networkName)) (\(xpan)); fetch them with 'tbrctl network fetch --structure'")
        }
        return tlvs
    }

    /// `PreferredNetwork` written: a network of the directory (or empty for none).
    package func setPreferredNetwork(_ id: StructureID, _ text: String) async throws {
        var xpan: ExtendedPANID?
        var routersOn: [String: [String]]?
        if !text.isEmpty {
            let normalized = try Self.extendedPANID(text)
            let directory = try await refreshedDirectory(id)
            guard directory.records.contains(where: { $0.extendedPANID == normalized }) else {
                throw ServiceError.missing(
                    "the structure knows no network \(normalized): add it ('tbrctl network add') or fetch it ('tbrctl network fetch --structure') first")
            }
            xpan = ExtendedPANID(normalized)
            routersOn = directory.routersOn
        }
        let chosen = xpan
        try await update(id) { $0.defaultThreadNetworkId = chosen }
        await signalNetworks(id, routersOn: routersOn)
    }

    package static func extendedPANID(_ text: String) throws -> String {
        guard text.count == 16, let xpan = ExtendedPANID(text) else {
            throw ServiceError.invalid("\(Quoted(text)) is not an Extended PAN ID (16 hex digits)")
        }
        return xpan.description
    }

    /// Publishes the directory anew (`Networks` on D-Bus): from the store with `routersOn` when the caller has just refreshed the
    /// directory, else after a refresh.
    package func signalNetworks(_ id: StructureID, routersOn: [String: [String]]? = nil) async {
        let entries: [NetworkEntry]?
        if let routersOn, let record = try? PersistentStructureStore.recordID(id), let records = try? await storedNetworks(record) {
            entries = try? await self.entries(id, records, routersOn: routersOn)
        } else {
            entries = try? await networkEntries(id)
        }
        guard let entries else { return }
        signals.publish(.networksChanged(id, entries))
    }
}
