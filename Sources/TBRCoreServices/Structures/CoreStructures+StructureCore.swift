package import BorderRouterService
import TBRCore
package import TBRDocuments
import TBRFoundation

// The core's calls about structures and their policy (TBRCore's StructureCore), answered with the
// documents tbrctl prints.

extension CoreStructures: StructureCore {
    /// Every structure as `tbrctl --json structure list` shows it, sorted by name.
    package func structureViews() async throws -> [StructureView] {
        var views: [StructureView] = []
        for info in try await allStructures() { views.append(try await structureView(info)) }
        return views.sorted { $0.name < $1.name }
    }

    package func structureView(_ name: String) async throws -> StructureView { try await structureView(try await structure(named: name)) }

    /// Structure `info` as `tbrctl --json structure show` shows it.
    package func structureView(_ info: StructureInfo) async throws -> StructureView {
        let settings = try await structures.settings(of: info.id)
        return StructureView(
            name: info.name, routers: info.deviceIDs.map(\.rawValue).sorted(),
            settings: .init(
                internetAccessOption: Self.busName(settings.internetAccessOption),
                defaultThreadNetworkId: settings.defaultThreadNetworkId?.description),
            policy: try await policyStatus(info.id))
    }

    /// Creates structure `name`, as `tbrctl --json structure create` answers.
    package func createStructure(named name: String) async throws -> StructureView {
        try await structureView(try await createStructure(name))
    }

    /// Deletes structure `name`; its routers belong to no structure then.
    package func deleteStructure(_ name: String) async throws { _ = try await removeStructure(name) }

    package func changeRouters(of name: String, router: String, add: Bool) async throws -> StructureView {
        if add { try await addBorderRouter(name, router) } else { try await removeBorderRouter(name, router) }
        return try await structureView(try await structure(named: name))
    }

    package func rooms(of name: String, adding: String?, removing: String?) async throws -> [String] {
        let id = try await structure(named: name).id
        if let adding { _ = try await addRoom(adding, to: id) }
        if let removing { _ = try await removeRoom(removing, from: id) }
        return try await service.rooms(of: id)
    }

    /// The network directory of structure `name`, as `tbrctl --json network list --structure` shows it.
    package func networks(of name: String) async throws -> [NetworkEntry] {
        try await networkEntries(try await structure(named: name).id)
    }

    package func policy(of name: String) async throws -> PolicyView {
        let info = try await structure(named: name)
        return try await policyView(of: info, statuses: try await policyStatus(info.id))
    }

    /// The policy document of structure `info` with its routers' `statuses`.
    package func policyView(of info: StructureInfo, statuses: [PolicyRouterView]) async throws -> PolicyView {
        let settings = try await structures.settings(of: info.id)
        return PolicyView(structure: info.name, internetAccessOption: Self.busName(settings.internetAccessOption), routers: statuses)
    }

    /// Sets the internet-access option of structure `name` and answers once the statuses are about it,
    /// as writing `InternetAccessOption` does.
    package func setPolicy(of name: String, option text: String) async throws -> PolicyView {
        let info = try await structure(named: name)
        // Its D-Bus spelling (`nat64Only`), or tbrctl's word for it (`nat64-only`), as a home controller's
        // select sends it.
        let option = Self.option(busName: text) ?? ThreadNetworkSettingsTrait.InternetAccessOption.allCases.first { Doctor.word($0) == text }
        guard let option else {
            throw ServiceError.invalid(
                "\(Quoted(text)) is not an internet-access option (\(ThreadNetworkSettingsTrait.InternetAccessOption.allCases.map(Self.busName).joined(separator: ", ")))")
        }
        try await update(info.id, reapplying: true) { $0.internetAccessOption = option }
        return try await policy(of: info.name)
    }
}
