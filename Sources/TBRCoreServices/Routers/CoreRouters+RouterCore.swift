import BorderRouterService
package import MeshCoP
package import Store
import TBRCore
package import TBRDocuments
package import TBRFoundation

// The core's calls about routers, their ePSKc and their mesh, answered with the documents tbrctl prints
// (TBRDocuments) from the same readings the D-Bus properties serve, so `GET /api/v1/routers/{id}` and
// `tbrctl --json info` print one document.

extension CoreRouters: RouterCore {
    /// Every router as `tbrctl --json list` shows it, sorted by id.
    package func routerListings() async -> [RouterListing] {
        await routerOverviews().map { o in
            let network = o.network
            return RouterListing(
                id: o.summary.id.rawValue, interface: o.summary.interfaceName?.rawValue ?? "", transport: o.summary.transport.rawValue,
                address: o.summary.address, online: o.summary.isOnline, role: Self.role(of: o.summary).nilIfEmpty,
                networkName: network?.networkName.nilIfEmpty, extPanId: network.map { $0.extendedPanId.description }?.nilIfEmpty,
                epskcSupported: o.epskcSupported)
        }.sorted { $0.id < $1.id }
    }

    package func routerInfo(_ router: String) async throws -> RouterInfo { try await routerInfo(try await resolve(router)) }

    /// Router `id` as `tbrctl --json info` shows it, from the same readings its D-Bus properties serve
    /// (the summary, and the trait values through the cache: the last known ones while it is offline).
    package func routerInfo(_ id: DeviceID) async throws -> RouterInfo {
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

    /// Starts an ePSKc for `seconds` (1…600), as `tbrctl --json epskc activate` shows the answer.
    package func activateEpskc(_ router: String, seconds: Int) async throws -> (router: String, activation: EpskcActivation) {
        guard (1...600).contains(seconds) else { throw ServiceError.invalid("an ePSKc duration is a number of seconds from 1 to 600") }
        let id = try await resolve(router)
        let response = try await startEpskc(id, seconds: UInt16(seconds))
        let success = response.status == .success
        return (
            id.rawValue,
            EpskcActivation(
                status: OperationStatus(response.status), epskc: success ? response.epskc?.digits : nil,
                validDurationSeconds: success ? response.validDurationSeconds : 0, message: nil)
        )
    }

    package func deactivateEpskc(_ router: String) async throws -> String {
        let id = try await resolve(router)
        try await requireOnline(id).deactivateEpskcMode(retainActiveSession: false)
        return id.rawValue
    }

    package func dataset(_ router: String, pending: Bool) async throws -> (router: String, dataset: OperationalDataset) {
        let id = try await resolve(router)
        let tlvs = try await dataset(id, pending: pending)
        do { return (id.rawValue, try OperationalDataset(bytes: tlvs)) } catch {
            throw CoreError(.failed, "the \(pending ? "pending" : "active") dataset of \(id) does not decode: \(error)")
        }
    }

    /// Router `router` joins the network of the Active dataset `hex`, as `tbrctl --json network join` answers.
    package func join(_ router: String, datasetHex hex: String, thisRouterOnly: Bool) async throws -> (router: String, result: JoinResult) {
        guard hex.utf8.count <= 1024, let tlvs = try? Hex.decode(hex.filter { !$0.isWhitespace }), !tlvs.isEmpty else {
            throw ServiceError.invalid("dataset is the Active dataset's TLVs as hex (at most 254 bytes)")
        }
        let problems = OperationalDataset.validate(bytes: tlvs, as: .active)
        guard problems.isEmpty else {
            throw ServiceError.invalid(
                "the dataset is not a valid complete Active dataset; nothing was sent: " + problems.map(\.description).joined(separator: "; "))
        }
        let id = try await resolve(router)
        let response = try await joinNetwork(id, tlvs: tlvs, scope: thisRouterOnly ? .thisRouterOnly : .wholeNetwork)
        let status = OperationStatus(response.status)
        let delay = response.migrationDelay.map { Int($0.milliseconds() / 1000) } ?? 0
        return (id.rawValue, JoinResult(status: status, migrationDelaySeconds: delay, message: status == .success ? nil : response.message?.nilIfEmpty))
    }

    package func leave(_ router: String) async throws -> String {
        let id = try await resolve(router)
        try await leaveNetwork(id)
        return id.rawValue
    }

    package func epskcJournal(since sequence: Int64, limit: Int) async throws -> [EpskcWatchEvent] {
        try await store.epskcEvents(since: sequence, router: nil, limit: limit).map(Self.watchEvent)
    }

    /// A journal entry as the `epskc` event (`tbrctl --json epskc watch`'s shape).
    package static func watchEvent(_ e: EpskcJournalEntry) -> EpskcWatchEvent {
        let deactivated = e.kind == .deactivated
        return EpskcWatchEvent(
            event: deactivated ? .epskcModeDeactivated : .epskcModeActivated, sequence: UInt64(e.sequence), router: e.router.rawValue,
            reason: deactivated ? (e.reason ?? "unspecified") : nil, detail: e.detail,
            activatedAt: WallTime(secondsSinceEpoch: e.activatedAt), deactivatedAt: e.deactivatedAt.map { WallTime(secondsSinceEpoch: $0) },
            validSeconds: e.validSeconds)
    }

    /// The mesh around `router`, as `tbrctl --json mesh` shows it: its agent's tables, read fresh
    /// within the service's limit (`GetMeshTopology` answers the same topology).
    package func mesh(_ router: String) async throws -> MeshView { try await meshView(try await resolve(router)) }

    package func meshView(_ id: DeviceID) async throws -> MeshView {
        _ = try await requireOnline(id)
        return MeshView(router: id.rawValue, topology: try await service.meshTopology(of: id))
    }

    /// The longest Graphviz may take to draw a mesh; a larger mesh than a home's would need more.
    package static let meshPictureLimit: Duration = .seconds(20)

    /// The mesh around `router` drawn as SVG by Graphviz's `dot` on this host (on `PATH`). tbrd writes
    /// the graph itself (``MeshView/dot()``): node names are extended addresses, labels escaped, so
    /// nothing a router reports reaches `dot` unquoted.
    package func meshPicture(_ router: String) async throws -> [UInt8] {
        let graph = try await meshView(try await resolve(router)).dot()
        guard let dot = Subprocess.locate("dot") else {
            throw CoreError(.unavailable, "Graphviz is not installed on tbrd's host (Debian package graphviz): the mesh cannot be drawn")
        }
        let result: Subprocess.Result
        do { result = try await Subprocess.run(dot, ["-Tsvg"], input: Array(graph.utf8), timeout: Self.meshPictureLimit) } catch {
            throw CoreError(.failed, "drawing the mesh failed: dot: \(error)")
        }
        guard result.status == 0, result.stdout.contains("<svg") else {
            let why = result.stderr.split(separator: "\n").first.map(String.init) ?? "no output"
            throw CoreError(.failed, "drawing the mesh failed: dot exited with status \(result.status): \(why.prefix(200))")
        }
        return Array(result.stdout.utf8)
    }
}
