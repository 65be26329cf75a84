import Foundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `GET /api/v1/metrics` (issue 49) scraped by a real Prometheus (Debian's) with a bearer token, in a
/// network namespace of the test's own so that its fixed port collides with nothing: a query through
/// Prometheus' HTTP API returns the router count the test set, and `promtool check metrics` passes the
/// exposition.
@Suite(.serialized) struct MetricsTests {
    @Test func aRealPrometheusScrapesTheRoutersAndPromtoolPassesTheExposition() async throws {
        guard getuid() == 0 else { throw TestKitError("this test needs root (a network namespace); make test runs as root") }
        let prometheus = try Executables.find("prometheus", package: "prometheus")
        let promtool = try Executables.find("promtool", package: "prometheus")
        let ip = try Executables.find("ip", package: "iproute2")
        let curl = try Executables.find("curl", package: "curl")
        let ns = "tbrd\(getpid())prom"
        try await TestNetwork.must(["netns", "add", ns])
        do {
            try await TestNetwork.must(["-n", ns, "link", "set", "lo", "up"])
            try await scrape(ns, prometheus: prometheus, promtool: promtool, ip: ip, curl: curl)
        } catch {
            _ = try? await TestNetwork.ip(["netns", "del", ns])
            throw error
        }
        _ = try? await TestNetwork.ip(["netns", "del", ns])
    }

    func scrape(_ ns: String, prometheus: String, promtool: String, ip: String, curl: String) async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0", "wpan1", "wpan2"])
            try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\n"), namespace: ns)
            let token = try await HTTPAPITests.token(env, "prometheus", "read")
            let base = try await HTTPAPITests.base(env)
            func inside(_ command: [String]) async throws -> ProcessResult {
                try await ProcessRunner.run(ip, ["netns", "exec", ns] + command, timeout: .seconds(30))
            }

            // The exposition itself: promtool's lint passes it, and it names what the issue lists.
            let scrape = try await inside([curl, "-s", "-H", "Authorization: Bearer \(token)", base + "/api/v1/metrics"])
            #expect(scrape.stdout.contains("# TYPE tbrd_routers gauge\ntbrd_routers 3\n"), "\(scrape.stdout)")
            for name in ["tbrd_router_up{router=\"wpan1\"", "tbrd_calls_total ", "tbrd_resident_memory_bytes "] {
                #expect(scrape.stdout.contains(name), "\(name) in \(scrape.stdout)")
            }
            let file = env.directory.appendingPathComponent("metrics.txt")
            try scrape.stdout.write(to: file, atomically: true, encoding: .utf8)
            let lint = try await ProcessRunner.run("/bin/sh", ["-c", "\"$0\" check metrics < \"$1\"", promtool, file.path], timeout: .seconds(30))
            #expect(lint.status == 0, "promtool: \(lint.stdout) \(lint.stderr)")
            let refused = try await inside([curl, "-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/api/v1/metrics"])
            #expect(refused.stdout == "401", "no token, no metrics")

            // A real Prometheus scraping it with the token from a file.
            let tokenFile = env.directory.appendingPathComponent("prometheus-token")
            try token.write(to: tokenFile, atomically: true, encoding: .utf8)
            let target = String(base.dropFirst("http://".count))
            let config = env.directory.appendingPathComponent("prometheus.yml")
            try """
                global:
                  scrape_interval: 1s
                scrape_configs:
                  - job_name: tbrd
                    metrics_path: /api/v1/metrics
                    authorization:
                      credentials_file: \(tokenFile.path)
                    static_configs:
                      - targets: ['\(target)']
                """.write(to: config, atomically: true, encoding: .utf8)
            let server = try TestProcess(
                ip,
                ["netns", "exec", ns, prometheus, "--config.file=\(config.path)", "--storage.tsdb.path=\(env.directory.appendingPathComponent("tsdb").path)",
                 "--web.listen-address=127.0.0.1:9090"],
                directory: env.directory)
            defer { Task { _ = await server.terminate() } }
            var answer = ""
            defer { if !answer.contains(#","3"]"#) { Issue.record("last answer: \(answer); prometheus: \(server.stderr.suffix(3000))") } }
            // Prometheus says nothing when it scrapes: its query API is asked again until it answers.
            try await eventually("Prometheus has scraped tbrd and answers the query", timeout: .seconds(60)) {
                guard server.isRunning else { throw TestKitError("prometheus exited: \(server.stderr.suffix(2000))") }
                answer = try await inside([curl, "-s", "http://127.0.0.1:9090/api/v1/query?query=tbrd_routers"]).stdout
                return answer.contains(#""value":["#) && answer.contains(#","3"]"#)
            }
            #expect(answer.contains(#""job":"tbrd""#), "\(answer)")
            let up = try await inside([curl, "-s", "http://127.0.0.1:9090/api/v1/query?query=up"]).stdout
            #expect(up.contains(#","1"]"#), "the scrape succeeds with the token: \(up)")
        }
    }
}
