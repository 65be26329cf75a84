import BorderRouterService
import Store
import TBRCore
package import TBRDocuments

#if canImport(Glibc)
import Glibc
#endif

/// `GET /api/v1/metrics` (issue 49): what the health monitor keeps, as metric families. Nothing here asks
/// a router or the Matter server: the readings are the monitor's last ones, so a scrape costs what reading memory and one
/// query of the problems cost.
extension HealthMonitor {
    package func metrics() async throws -> [MetricFamily] {
        typealias Sample = MetricFamily.Sample
        typealias Label = MetricFamily.Label
        let summaries = await service.routerSummaries().sorted { $0.id.rawValue < $1.id.rawValue }
        var up: [Sample] = [], roles: [Sample] = [], partitions: [Sample] = [], routers: [Sample] = [], children: [Sample] = []
        var links: [Sample] = [], nat64: [Sample] = []
        for summary in summaries {
            let router = Label("router", summary.id.rawValue)
            up.append(Sample([router, Label("transport", "\(summary.transport)")], summary.isOnline ? 1 : 0))
            guard let o = observations[summary.id] else { continue }
            if let word = o.stateWord {
                for role in Self.roleWords { roles.append(Sample([router, Label("role", role)], role == word ? 1 : 0)) }
            }
            if let p = o.partitionID { partitions.append(Sample([router], Double(p))) }
            if let n = o.routers { routers.append(Sample([router], Double(n))) }
            if let n = o.children { children.append(Sample([router], Double(n))) }
            for neighbor in o.neighbors { links.append(Sample([router, Label("neighbor", neighbor.address)], Double(neighbor.linkQuality))) }
            if let state = o.nat64 {
                for (component, word) in [("prefix_manager", state.prefixManager), ("translator", state.translator)] {
                    for w in Self.nat64Words { nat64.append(Sample([router, Label("component", component), Label("state", w)], w == word ? 1 : 0)) }
                }
            }
        }
        let open: [ProblemRecord]
        do { open = try await store.openProblems() } catch { throw ServiceError.core(error) }
        var byCheck: [String: Int] = [:]
        for p in open { byCheck[p.check, default: 0] += 1 }
        return [
            MetricFamily("tbrd_routers", .gauge, "Border routers tbrd manages.", [Sample([], Double(summaries.count))]),
            MetricFamily("tbrd_router_up", .gauge, "Whether the router's otbr-agent answers (1) or not (0).", up),
            MetricFamily("tbrd_router_role", .gauge, "The router's Thread role as last read: 1 for the role it has, 0 for the others.", roles),
            MetricFamily("tbrd_router_partition_id", .gauge, "The Thread partition id the router is in, as last read.", partitions),
            MetricFamily("tbrd_router_mesh_routers", .gauge, "Routers of the mesh (the leader among them) the router sees.", routers),
            MetricFamily("tbrd_router_mesh_children", .gauge, "Children of the mesh the router sees.", children),
            MetricFamily(
                "tbrd_router_neighbor_link_quality", .gauge, "Link quality (0 to 3, from the link margin) at which the router hears each neighbour.",
                links),
            MetricFamily("tbrd_router_nat64_state", .gauge, "NAT64 prefix manager and translator state: 1 for the state each is in.", nat64),
            MetricFamily(
                "tbrd_problems_open", .gauge, "Open problems by the check that found them.",
                byCheck.keys.sorted().map { Sample([Label("check", $0)], Double(byCheck[$0] ?? 0)) }),
            MetricFamily(
                "tbrd_epskc_sessions_ended_total", .counter, "ePSKc sessions ended since tbrd started, by reason.",
                epskcEnds.keys.sorted().map { Sample([Label("reason", $0)], Double(epskcEnds[$0] ?? 0)) }),
            MetricFamily(
                "tbrd_matter_nodes", .gauge, "Matter nodes of the structures by whether the Matter server reaches them, at the last look.",
                nodesAvailable.isEmpty
                    ? []
                    : [true, false].map { a in Sample([Label("state", a ? "available" : "unavailable")], Double(nodesAvailable.values.filter { $0 == a }.count)) }),
            MetricFamily("tbrd_calls_total", .counter, "Calls tbrd served since it started, through every API.", [Sample([], Double(calls.served))]),
            MetricFamily("tbrd_resident_memory_bytes", .gauge, "tbrd's resident memory.", [Sample([], Double(Self.residentBytes()))]),
        ]
    }

    static let roleWords = ["disabled", "detached", "child", "router", "leader", "offline"]
    static let nat64Words = ["disabled", "not_running", "idle", "active"]

    /// The second number of `/proc/self/statm` (resident pages) in bytes; 0 when it cannot be read.
    static func residentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 128)
        guard fgets(&line, Int32(line.count), file) != nil else { return 0 }
        let words = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ")
        guard words.count >= 2, let pages = Int(words[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
