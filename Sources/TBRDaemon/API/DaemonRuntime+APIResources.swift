import BorderRouterService
import DBus
import DeviceModel
import HTTPAPIRouting
import MatterCommissioning
import MatterOnboarding
import MeshCoP
import TBRDBusAPI
import TBRDocuments
import TBRFoundation
import TBRCore

// The rest of tbrctl's documents, answered from tbrd's own state for the HTTPS API: the mesh (also as a
// picture), the doctor, datasets, joining and leaving, structures and their routers, rooms, the network
// directory, Matter nodes and commissioning. Each takes domain values and returns the document type
// tbrctl prints (TBRDocuments); errors stay DaemonError's, mapped once by each adapter.

extension DaemonRuntime {
    /// The mesh around router `id`, as `tbrctl --json mesh` shows it: its agent's tables, read fresh
    /// within the service's limit (`GetMeshTopology` answers the same topology).
    func meshView(_ id: DeviceID) async throws -> MeshView {
        _ = try await requireOnline(id)
        return MeshView(router: id.rawValue, topology: try await service.meshTopology(of: id))
    }

    /// The longest Graphviz may take to draw a mesh; a larger mesh than a home's would need more.
    static let meshPictureLimit: Duration = .seconds(20)

    /// The mesh around router `id` drawn as SVG by Graphviz's `dot` on this host (the program
    /// `mesh-dot-path` in tbrd.conf, default `dot` on `PATH`). tbrd writes the graph itself
    /// (``MeshView/dot()``): node names are extended addresses, labels escaped, so nothing a router
    /// reports reaches `dot` unquoted.
    func meshPicture(_ id: DeviceID) async throws -> [UInt8] {
        let graph = try await meshView(id).dot()
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

    /// The doctor's checks of router `id` and this host, as `tbrctl --json doctor` shows them.
    func doctorReport(_ text: String) async throws -> DoctorReport {
        let id = try await resolve(text)
        return DoctorReport(router: id.rawValue, checks: try await diagnose(id.rawValue).map { row throws(DBusValueError) in try DoctorCheck(row) })
    }

    /// The Active or Pending dataset of router `id`, decoded (secrets redacted unless the encoder asks).
    func operationalDataset(_ id: DeviceID, pending: Bool) async throws -> OperationalDataset {
        let tlvs = try await dataset(id, pending: pending)
        do { return try OperationalDataset(bytes: tlvs) } catch {
            throw CoreError(.failed, "the \(pending ? "pending" : "active") dataset of \(id) does not decode: \(error)")
        }
    }

    /// Router `id` joins the network of the Active dataset `hex`, as `tbrctl --json network join` answers.
    func join(_ id: DeviceID, datasetHex hex: String, thisRouterOnly: Bool) async throws -> JoinResult {
        guard hex.utf8.count <= 1024, let tlvs = try? Hex.decode(hex.filter { !$0.isWhitespace }), !tlvs.isEmpty else {
            throw DaemonError.invalid("dataset is the Active dataset's TLVs as hex (at most 254 bytes)")
        }
        let problems = OperationalDataset.validate(bytes: tlvs, as: .active)
        guard problems.isEmpty else {
            throw DaemonError.invalid(
                "the dataset is not a valid complete Active dataset; nothing was sent: " + problems.map(\.description).joined(separator: "; "))
        }
        let reply = try await joinNetwork(id, tlvs: tlvs, scope: thisRouterOnly ? .thisRouterOnly : .wholeNetwork)
        return JoinResult(
            status: reply.status, migrationDelaySeconds: Int(reply.delayMs / 1000),
            message: reply.status == .success ? nil : reply.message.nilIfEmpty)
    }

    /// Creates structure `name`, as `tbrctl --json structure create` answers.
    func createdStructure(_ name: String) async throws -> StructureView {
        _ = try await createStructure(name)
        return try await structureView(try await structure(named: name))
    }

    /// Structure `name` after router `router` joined it (`add`) or left it.
    func structureAfter(_ name: String, router: String, add: Bool) async throws -> StructureView {
        if add { try await addBorderRouter(name, router) } else { try await removeBorderRouter(name, router) }
        return try await structureView(try await structure(named: name))
    }

    /// The rooms of structure `name`, sorted, after `change` (none: as they are).
    func rooms(_ name: String, adding: String? = nil, removing: String? = nil) async throws -> [String] {
        let id = try await structure(named: name).id
        if let adding { try await changeRooms(id) { try await $0.addRoom(adding, to: id) } }
        if let removing { try await changeRooms(id) { try await $0.removeRoom(removing, from: id) } }
        return try await roomNames(id)
    }

    /// The network directory of structure `name`, as `tbrctl --json network list --structure` shows it.
    func networkEntries(_ name: String) async throws -> [NetworkEntry] {
        let info = try await structure(named: name)
        return try await networkRows(info.id).map { NetworkEntry(structure: info.name, $0) }
    }

    /// The Matter nodes of structure `name`, as `tbrctl --json matter nodes --structure` shows them.
    func matterNodeViews(_ name: String) async throws -> [MatterNodeView] {
        let info = try await structure(named: name)
        return try await matterNodeRows(info.id).map { MatterNodeView(structure: info.name, $0) }
    }

    /// The answer to `POST /structures/{name}/commissioning`: the session and each code's payload id,
    /// whose stages follow as `commissioning` events.
    struct CommissioningStarted: Encodable, Sendable {
        struct Payload: Encodable, Sendable {
            /// The code's position in the request, from 1 (`tbrctl matter commission`'s `payload`).
            var payload: Int
            var payloadId: String
        }
        var structure: String
        var session: String
        var payloads: [Payload]
    }

    /// The most codes one request may queue.
    static let commissioningBatchLimit = 32

    /// Commissions the devices of `request` into structure `name`, one at a time, as `tbrctl matter
    /// commission` does: every code and the name are checked before anything is queued; then a session
    /// is opened, the codes queued, and the session completed in the background. The answer comes once
    /// the codes are queued; each stage is a `commissioning` event.
    func startCommissioning(_ name: String, _ request: CommissionRequest) async throws -> CommissioningStarted {
        try requireCommissioner()
        guard !request.codes.isEmpty, request.codes.count <= Self.commissioningBatchLimit else {
            throw DaemonError.invalid("codes holds 1 to \(Self.commissioningBatchLimit) QR codes (MT:…) or manual pairing codes")
        }
        for (i, code) in request.codes.enumerated() {
            do { _ = try SetupPayload(parsing: code) } catch {
                throw DaemonError.invalid("code \(i + 1) is not a valid onboarding payload: \(error.description); nothing was queued")
            }
        }
        var options = CommissioningOptions(onNetwork: request.onNetwork ?? false, name: request.name?.nilIfEmpty, room: request.room?.nilIfEmpty)
        if let text = request.network {
            guard text.count == 16, let xpan = ExtendedPANID(text) else { throw DaemonError.invalid("network is an extended PAN ID (16 hex digits)") }
            options.network = xpan
        }
        if let nodeName = options.name {
            guard request.codes.count == 1 else { throw DaemonError.invalid("name names one node: give it with one code only") }
            if let problem = NameRules.problem(with: nodeName, maximumBytes: TBRDBusAPI.Structure.maximumNodeNameBytes) {
                throw DaemonError.invalid("\(Quoted(nodeName)) cannot name a Matter node: \(problem); nothing was queued")
            }
        }
        let info = try await structure(named: name)
        let session = try await service.prepareMatterCommissioning(structure: info.id).session
        var payloads: [CommissioningStarted.Payload] = []
        do {
            for (i, code) in request.codes.enumerated() {
                payloads.append(.init(payload: i + 1, payloadId: try await commission(info.id, session: session, payload: code, options: options)))
            }
        } catch {
            try? await service.cancelMatterCommissioning(session: session, structure: info.id)
            throw error
        }
        let service = self.service, logger = self.logger
        let queued = inBackground {
            do { _ = try await service.completeMatterCommissioning(session: session, structure: info.id) } catch {
                logger.warning("an API commissioning session did not complete", [("session", session.rawValue), ("error", "\(error)")])
            }
        }
        guard queued else {
            try? await service.cancelMatterCommissioning(session: session, structure: info.id)
            throw CoreError(.busy, "too many commissioning sessions are being completed; try again when one ends")
        }
        return CommissioningStarted(structure: info.name, session: session.rawValue, payloads: payloads)
    }
}
