import DeviceModel
import TBRDBusAPI
import TBRDocuments
import TBRFoundation

// The transport-neutral answers: the shared documents (TBRDocuments) built from tbrd's own state, the
// same values its D-Bus properties give, so that `GET /api/v1/routers/{id}` and `tbrctl --json info`
// print the same document. The HTTP adapter serves these; errors stay typed (DaemonError's names) and
// are mapped once, at each adapter's boundary.

extension DaemonRuntime {
    /// Every router as `tbrctl --json list` shows it, sorted by id.
    func routerListings() async -> [RouterListing] {
        await routerRows().map { summary, row in
            RouterListing(
                id: row.id, interface: row.interface, transport: summary.transport.rawValue, address: summary.address,
                online: row.online, role: row.role.nilIfEmpty, networkName: row.networkName.nilIfEmpty, extPanId: row.extPanId.nilIfEmpty,
                epskcSupported: row.epskcSupported)
        }.sorted { $0.id < $1.id }
    }

    /// Router `id` as `tbrctl --json info` shows it, from the same readings its D-Bus properties serve
    /// (the summary, and the trait values through the cache: the last known ones while it is offline).
    func routerInfo(_ id: DeviceID) async throws -> RouterInfo {
        let summary = try await summary(id)
        let network = try await networkInfo(id)
        let basic = try await basicInformation(id)
        let capabilities = try await capabilities(id)
        // As the properties say it: an unknown network has an empty name and extended PAN ID.
        let networkName = network?.networkName ?? "", extPanId = network?.extendedPanId.description ?? ""
        let hasNetwork = !networkName.isEmpty || !extPanId.isEmpty
        return RouterInfo(
            id: id.rawValue, transport: summary.transport.rawValue, address: summary.address,
            borderAgentId: summary.borderAgentID.map { Hex.encode($0.bytes) },
            basicInformation: .init(
                vendorName: basic.vendorName, vendorId: basic.vendorID.flatMap { $0 == 0 ? nil : $0 },
                productId: basic.productID.flatMap { $0 == 0 ? nil : $0 }, productName: basic.productName,
                softwareVersion: basic.softwareVersion),
            capabilities: .init(epskcSupported: capabilities.epskcSupported, internetAccessOption: capabilities.internetAccessOption.rawValue),
            network: .init(
                role: Self.role(of: summary).nilIfEmpty, networkName: hasNetwork ? networkName.nilIfEmpty : nil,
                panId: hasNetwork ? network?.panId.rawValue ?? 0xFFFF : nil, extPanId: hasNetwork ? extPanId.nilIfEmpty : nil,
                channel: hasNetwork ? network?.channel.number ?? 0 : nil),
            interface: summary.interfaceName?.rawValue ?? "", online: summary.isOnline)
    }

    /// Starts an ePSKc on router `id` for `seconds` (1…600), as `tbrctl --json epskc activate` shows
    /// the answer. The key goes to this caller only.
    func epskcActivation(_ id: DeviceID, seconds: Int) async throws -> EpskcActivation {
        guard (1...600).contains(seconds) else { throw DaemonError.invalid("an ePSKc duration is a number of seconds from 1 to 600") }
        let reply = try await activateEpskc(id, seconds: UInt16(seconds))
        let success = reply.status == .success
        return EpskcActivation(
            status: reply.status, epskc: success ? reply.epskc : nil, validDurationSeconds: success ? Int(reply.validSeconds) : 0, message: nil)
    }

    /// Ends the ePSKc of router `id` (its session with a commissioner too).
    func epskcDeactivation(_ id: DeviceID) async throws {
        try await requireOnline(id).deactivateEpskcMode(retainActiveSession: false)
    }

    /// Every structure as `tbrctl --json structure list` shows it, sorted by name.
    func structureViews() async throws -> [StructureView] {
        var views: [StructureView] = []
        for info in try await allStructures() { views.append(try await structureView(info)) }
        return views.sorted { $0.name < $1.name }
    }

    /// Structure `info` as `tbrctl --json structure show` shows it.
    func structureView(_ info: StructureInfo) async throws -> StructureView {
        let settings = try await structures.settings(of: info.id)
        return StructureView(
            name: info.name, routers: info.deviceIDs.map(\.rawValue).sorted(),
            settings: .init(
                internetAccessOption: Self.busName(settings.internetAccessOption),
                defaultThreadNetworkId: settings.defaultThreadNetworkId?.description),
            policy: Self.policyRows(try await policyStatus(info.id)))
    }

    /// The policy of structure `name` as `tbrctl --json structure policy` shows it.
    func policyView(_ name: String) async throws -> PolicyView {
        let info = try await structure(named: name)
        return try await policyView(of: info, rows: try await policyStatus(info.id))
    }

    /// The policy document of structure `info` with its status `rows` (`Structure1.PolicyStatus`).
    func policyView(of info: StructureInfo, rows: [PolicyStatusRow]) async throws -> PolicyView {
        let settings = try await structures.settings(of: info.id)
        return PolicyView(structure: info.name, internetAccessOption: Self.busName(settings.internetAccessOption), routers: Self.policyRows(rows))
    }

    /// Sets the internet-access option of structure `name` (its D-Bus spelling) and answers once the
    /// statuses are about it, as writing `InternetAccessOption` does.
    func setPolicy(_ name: String, option text: String) async throws -> PolicyView {
        let info = try await structure(named: name)
        guard let option = Self.option(busName: text) else {
            throw DaemonError.invalid(
                "\(Quoted(text)) is not an internet-access option (\(TBRDBusAPI.Structure.internetAccessOptions.joined(separator: ", ")))")
        }
        try await update(info.id, reapplying: true) { $0.internetAccessOption = option }
        return try await policyView(info.name)
    }

    private static func policyRows(_ rows: [PolicyStatusRow]) -> [PolicyRouterView] {
        rows.map { PolicyRouterView(id: $0.router, state: $0.state, detail: $0.detail) }.sorted { $0.id < $1.id }
    }
}
