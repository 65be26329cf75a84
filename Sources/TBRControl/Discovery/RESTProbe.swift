import HTTP
import OpenThreadREST

/// Which discovered agents serve otbr-agent's REST API on its default port: `GET
/// /.well-known/thread/br-rest` on port 8081 of each address, all at once, bounded as a whole (about a
/// second); the first address of an agent whose answer is the br-rest description gives its URL.
/// Link-local IPv6 addresses are skipped (a URL cannot carry their zone).
enum RESTProbe {
    /// otbr-agent's default `--rest-listen-port`.
    static let port = 8081

    /// The REST URL of each agent of `addresses` (by agent index) that answers within `timeout`.
    static func urls(of addresses: [[String]], timeout: Duration = .seconds(1)) async -> [Int: String] {
        let client = HTTPClient(timeout: timeout, maximumResponseBytes: 64 << 10)
        return await withTaskGroup(of: (Int, Int, String?).self) { group in
            for (agent, list) in addresses.enumerated() {
                for (rank, address) in list.enumerated() where !address.lowercased().hasPrefix("fe80") {
                    group.addTask { (agent, rank, await probe(address, client)) }
                }
            }
            var found: [Int: (rank: Int, url: String)] = [:]
            for await (agent, rank, url) in group {
                guard let url, found[agent].map({ rank < $0.rank }) ?? true else { continue }
                found[agent] = (rank, url)
            }
            return found.mapValues(\.url)
        }
    }

    /// `http://ADDRESS:8081` when the br-rest description answers there.
    private static func probe(_ address: String, _ client: HTTPClient) async -> String? {
        let host = address.contains(":") ? "[\(address)]" : address
        guard let base = try? HTTPURL("http://\(host):\(port)"),
            let response = try? await client.send(HTTPRequest("GET", base.appending("/.well-known/thread/br-rest"))),
            response.status == 200, (try? RESTDecoding.wellKnown(response.body)) != nil
        else { return nil }
        return base.description
    }
}
