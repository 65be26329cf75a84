import BorderAgentDiscovery
package import BorderRouterService
import Firewall
import HostNetwork
import MeshCoP
import OpenThreadBR
package import MDNS
package import Store
import TBRCore
package import TBRDocuments
package import TBRFoundation

/// The core's diagnostics (TBRCore's ``TBRCore/DiagnosticsCore``): a router's mesh (from
/// ``CoreRouters``) and the doctor's checks of a router and this host, from what tbrd reads and what
/// mDNS shows.
package actor CoreDiagnostics: DiagnosticsCore {
    package let routers: CoreRouters
    package let service: BorderRouterService
    package let structures: PersistentStructureStore
    package let borderAgents: BorderAgentsSeen
    package let mdns: MDNSClient
    /// The `nft` program of tbrd's host firewall; nil when tbrd keeps none (`firewall = off`).
    package let firewallTool: String?
    package let clock: any TBRClock

    package init(
        routers: CoreRouters, service: BorderRouterService, structures: PersistentStructureStore, borderAgents: BorderAgentsSeen,
        mdns: MDNSClient, firewallTool: String?, clock: any TBRClock
    ) {
        self.routers = routers
        self.service = service
        self.structures = structures
        self.borderAgents = borderAgents
        self.mdns = mdns
        self.firewallTool = firewallTool
        self.clock = clock
    }

    package func mesh(_ router: String) async throws -> MeshView { try await routers.mesh(router) }

    package func meshPicture(_ router: String) async throws -> [UInt8] { try await routers.meshPicture(router) }

    /// The doctor's checks of `router` and this host, as `tbrctl --json doctor` shows them.
    package func doctor(_ router: String) async throws -> DoctorReport {
        let id = try await routers.resolve(router)
        return DoctorReport(router: id.rawValue, checks: try await doctorChecks(id.rawValue))
    }

    /// How long the readings of one router may take in all.
    package static let diagnoseLimit: Duration = .seconds(5)

    /// The doctor's checks of router `text` (empty: the only router) and of this host.
    package func doctorChecks(_ text: String) async throws -> [DoctorCheck] {
        await diagnosis(of: try await routers.summary(try await diagnosedRouter(text))).checks
    }

    /// The doctor's checks of router `id` and this host, and what they read about its mesh, for the health
    /// monitor; nil when tbrd does not know the router.
    /// `host`: this host's facts when the caller read them for several routers (nil: read now).
    package func healthReading(_ id: DeviceID, host: HostFacts? = nil) async -> (checks: [DoctorCheck], observation: RouterObservation)? {
        guard let summary = try? await routers.summary(id) else { return nil }
        let (checks, facts) = await diagnosis(of: summary, host: host)
        return (checks, RouterObservation(facts))
    }

    /// This host's facts, for ``healthReading(_:host:)`` of several routers.
    package func hostReading() async -> HostFacts { await hostFacts() }

    /// Reads router `summary`'s facts and this host's (unless given), and runs the doctor's checks on them.
    private func diagnosis(of summary: BorderRouterSummary, host given: HostFacts? = nil) async -> (checks: [DoctorCheck], facts: RouterFacts) {
        let router: RouterFacts, host: HostFacts
        if let given {
            (router, host) = (await routerFacts(summary), given)
        } else {
            async let reading = hostFacts()
            router = await routerFacts(summary)
            host = await reading
        }
        return (Doctor.checks(router, host: host).map(\.document), router)
    }

    private func diagnosedRouter(_ text: String) async throws -> DeviceID {
        guard text.isEmpty else { return try await routers.resolve(text) }
        let ids = await service.deviceIDs()
        guard ids.count == 1, let only = ids.first else {
            throw ServiceError.invalid(
                ids.isEmpty ? "tbrd knows no border router" : "name the router to diagnose: \(ids.map(\.rawValue).joined(separator: ", "))")
        }
        return only
    }

    private func routerFacts(_ summary: BorderRouterSummary) async -> RouterFacts {
        let id = summary.id
        let service = self.service
        var facts = RouterFacts(
            id: id.rawValue, transport: summary.transport, address: summary.address, online: summary.isOnline, role: summary.role,
            topology: .failed("not read"), dataset: .failed("not read"), health: .none("not read"),
            advertisedOMR: advertisedOMR(of: summary), policy: await policyFacts(id))
        facts.structureNetwork = await structureNetworkFacts(id)
        guard summary.isOnline else { return facts }
        let outcome = try? await TimeLimit.run(Self.diagnoseLimit, clock: clock) {
            async let topology = Self.reading { () throws(HomeError) in try await service.meshTopology(of: id, wholeMesh: false) }
            async let tlvs = Self.reading { () throws(HomeError) in try await service.datasetTLVs(of: id, pending: false) }
            async let health = service.healthReadings(of: id)
            return (await topology, await tlvs, await health)
        }
        guard case .finished(let (topology, tlvs, health))? = outcome else {
            let late = "the agent did not answer within \(Self.diagnoseLimit)"
            facts.topology = .failed(late)
            facts.dataset = .failed(late)
            facts.health = .none(late, failed: true)
            return facts
        }
        facts.topology = topology
        switch tlvs {
        case .value(let bytes?):
            facts.dataset = (try? OperationalDataset(bytes: bytes)).map { .value($0) } ?? .failed("the active dataset does not decode")
        case .value(nil): facts.dataset = .value(nil)
        case .unsupported(let why): facts.dataset = .unsupported(why)
        case .failed(let why): facts.dataset = .failed(why)
        }
        facts.health = health ?? .none("the router is gone", failed: true)
        return facts
    }

    private static func reading<V: Sendable>(_ body: () async throws(HomeError) -> V) async -> Reading<V> {
        do { return .value(try await body()) } catch {
            return error.code == .notSupported ? .unsupported(error.message) : .failed(error.message)
        }
    }

    /// The OMR prefix in the `_meshcop._udp` TXT record of the router's Border Agent.
    private func advertisedOMR(of summary: BorderRouterSummary) -> IPv6Prefix? {
        guard let baID = summary.borderAgentID,
            let agent = borderAgents.all?.first(where: { $0.txt.borderAgentID == baID }), let omr = agent.txt.omrPrefix,
            omr.bytes.count <= 16
        else { return nil }
        return IPv6Prefix(address: omr.bytes + Array(repeating: 0, count: 16 - omr.bytes.count), length: Int(omr.length))
    }

    private func policyFacts(_ id: DeviceID) async -> PolicyFacts? {
        guard let structure = try? await structures.structure(containing: id),
            let settings = try? await structures.settings(of: structure.id)
        else { return nil }
        let status = (try? await structures.policyStatus(of: structure.id))?.first { $0.deviceID == id }
        return PolicyFacts(structure: structure.name, option: settings.internetAccessOption, status: status)
    }

    private func structureNetworkFacts(_ id: DeviceID) async -> StructureNetworkFacts? {
        let store = structures.store
        guard let record = try? await store.structure(containing: id) else { return nil }
        let preferred = record.settings.defaultThreadNetworkID
        let networks = (try? await store.networks(inStructure: record.id)) ?? []
        let held = preferred != nil && networks.first { $0.extendedPANID == preferred }?.dataset != nil
        return StructureNetworkFacts(structure: record.name, recovery: record.settings.recovery, preferred: preferred, credentialsHeld: held)
    }

    /// The structures whose option restricts the mesh (`none`, `nat64-only`) and that hold a router on this host.
    private func structuresNeedingFirewall() async -> [String] {
        let local = Set(await service.routerSummaries().filter { $0.transport == .dbus }.map(\.id))
        var names: [String] = []
        for structure in (try? await structures.structures()) ?? [] {
            guard let option = try? await structures.settings(of: structure.id).internetAccessOption,
                option == .internetAccessOptionNone || option == .internetAccessOptionNat64Only,
                structure.deviceIDs.contains(where: local.contains)
            else { continue }
            names.append(structure.name)
        }
        return names
    }

    private func hostFacts() async -> HostFacts {
        let routes: Reading<[IPv6Route]>
        do { routes = .value(try IPv6RouteTable.read()) } catch { routes = .failed(error.description) }
        let threadInterfaces = Set(await service.routerSummaries().compactMap { $0.interfaceName?.rawValue })
        var names = (routes.value ?? []).filter { $0.isDefault && !$0.flags.contains(.reject) }.compactMap(\.interface)
        if names.isEmpty {
            names = HostInterface.list().filter { $0.isUp && !$0.isLoopback }.map(\.name)
        }
        names = Array(Set(names).subtracting(threadInterfaces).subtracting(["lo"])).sorted()
        let interfaces = names.map { name -> (name: String, settings: Reading<InterfaceIPv6Settings>) in
            do { return (name, .value(try InterfaceIPv6Settings.read(interface: name))) } catch {
                return (name, .failed("\(error)"))
            }
        }
        let firewallOn = firewallTool != nil
        var table: Reading<Bool> = .unsupported("firewall = off")
        if let firewallTool {
            do { table = .value(try await NFTables(tool: firewallTool).snapshot().listing != nil) } catch {
                table = .failed(error.description)
            }
        }
        let avahi = await mdns.isDaemonRunning
        return HostFacts(
            routes: routes, interfaces: interfaces, firewallEnabled: firewallOn, firewallNeededBy: await structuresNeedingFirewall(),
            firewallTable: table, avahiRunning: avahi,
            borderAgents: avahi ? borderAgents.all ?? [] : nil)
    }
}
