import Foundation
import TBRTestKit
import Testing

extension LANTests {
    /// tbrd's HTTPS API seen from another host of the LAN: `_tbrd._tcp` with the port it got and the
    /// certificate's fingerprint (`fp=`) that `tbrctl api info` shows, so that a client can find and pin it.
    @Suite struct APIPublicationTests {
        @Test func anotherHostFindsTheAPIAndItsFingerprintOverMDNS() async throws {
            try await withRemoteRouterRig { rig in
                try await rig.startDaemon(extra: "http-listen = \(rig.tbrdHost.address):0\n")
                let (_, info) = try await rig.json(["api", "info"])
                let fingerprint = try #require(info["certificateSha256"] as? String)
                let listen = try #require(info["listen"] as? String)
                let port = try #require(listen.split(separator: ":").last.map(String.init))
                #expect(fingerprint.count == 64)

                // avahi-browse on the other host, through its own avahi-daemon: the resolved line
                // (=;iface;proto;name;type;domain;host;address;port;txt).
                let browse = try Executables.find("avahi-browse", package: "avahi-utils")
                var resolved: [String] = []
                try await eventually("the other host resolves _tbrd._tcp", timeout: .seconds(20)) {
                    let r = try await ProcessRunner.run(
                        try Executables.find("ip", package: "iproute2"),
                        ["netns", "exec", rig.agentHost.namespace, browse, "-r", "-p", "-t", "_tbrd._tcp"],
                        environment: rig.agentHost.environment, timeout: .seconds(30))
                    resolved = r.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("=;") }
                    return !resolved.isEmpty
                }
                let fields = resolved[0].split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                #expect(fields.count >= 10 && fields[7] == rig.tbrdHost.address && fields[8] == port, "\(resolved[0])")
                #expect(resolved[0].contains("\"fp=\(fingerprint)\"") && resolved[0].contains("\"path=/api/v1/\""), "\(resolved[0])")
            }
        }
    }
}
