import Foundation
import TBRTestKit
import Testing

extension LANTests {
    /// Issue 21, bad input from the network: tbrd adds and polls "agents" on another host that answer with
    /// a web page, never answer, answer an endless body, or pass the checks and then answer wrong JSON
    /// types and 500s. Each gives a clear error naming it, nothing is recorded wrongly, and tbrd stays
    /// responsive throughout.
    @Suite struct HostileRESTAgentTests {
        /// One Python process on the agent host, a server per port: 8082 a web page, 8083 silence, 8084 an
        /// endless body, 8085 an agent whose later answers are garbage.
        static let servers = #"""
            import http.server, json, socketserver, sys, threading, time
            BAID = "00112233445566778899AABBCCDDEEFF"
            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def log_message(self, *args): pass
                def reply(self, status, body=b"", ctype="application/json"):
                    self.send_response(status)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def do_GET(self):
                    port = self.server.server_address[1]
                    if port == 8082: return self.reply(200, b"<html><body>router admin</body></html>", "text/html")
                    if port == 8083: return time.sleep(3600)
                    if port == 8084:
                        self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers()
                        while True: self.wfile.write(b"[" * 65536)
                    if self.path == "/.well-known/thread/br-rest":
                        return self.reply(200, json.dumps({"api": {"version": "0.5.0", "base": "/api/"}, "links": []}).encode())
                    if self.path == "/node/ba-id": return self.reply(200, json.dumps(BAID).encode())
                    if self.path == "/node/state": return self.reply(200, b'{"state": 3}')
                    return self.reply(500, b'{"title": "Internal Server Error", "status": 500, "detail": ""}')
                do_POST = do_GET
                do_PUT = do_GET
                do_DELETE = do_GET
            class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
                daemon_threads = True
                allow_reuse_address = True
            for port in (8082, 8083, 8084, 8085):
                threading.Thread(target=Server((sys.argv[1], port), Handler).serve_forever, daemon=True).start()
            print("listening", flush=True)
            threading.Event().wait()
            """#

        @Test func hostileAgentsGiveClearErrorsAndTbrdStaysResponsive() async throws {
            try await withRemoteRouterRig { rig in
                let (ip, words) = try rig.inside(
                    rig.agentHost, [try Executables.find("python3", package: "python3"), "-c", Self.servers, rig.agentHost.address])
                let servers = try TestProcess(ip, words, directory: rig.directory)
                defer { kill(servers.pid, SIGKILL) }
                try await eventually("the hostile servers listen", timeout: .seconds(20), wakingOn: servers.wakeups) {
                    guard servers.isRunning else { throw TestKitError("the servers exited: \(servers.stderr)") }
                    return servers.stdout.contains("listening")
                }
                try await rig.startDaemon()
                let host = "http://\(rig.agentHost.address)"

                let web = try await rig.tbrctl(["router", "add", "\(host):8082"])
                #expect(web.status == 1 && web.stderr.contains("\(host):8082"), "\(web.status) \(web.stderr)")
                let silent = try await rig.tbrctl(["router", "add", "\(host):8083"])
                #expect(silent.status == 69 && silent.stderr.contains("\(host):8083"), "\(silent.status) \(silent.stderr)")
                let endless = try await rig.tbrctl(["router", "add", "\(host):8084"])
                #expect(endless.status == 1 && endless.stderr.contains("\(host):8084"), "\(endless.status) \(endless.stderr)")
                #expect(try await rig.list().isEmpty, "nothing was recorded for a refused agent")

                // Passes the checks, then answers garbage: added, never online, every operation a clear 69.
                let (added, json) = try await rig.json(["router", "add", "\(host):8085", "--id", "garbage"])
                #expect(added.status == 0 && json["id"] as? String == "garbage", "\(added.stderr)")
                for _ in 0..<5 {
                    let row = try await rig.row("garbage")
                    #expect(row?["online"] as? Bool == false && row?["transport"] as? String == "rest")
                }
                let activate = try await rig.tbrctl(["epskc", "activate", "-d", "garbage"])
                #expect(activate.status == 69 && activate.stderr.contains("garbage"), "\(activate.status) \(activate.stderr)")
                let info = try await rig.tbrctl(["info", "-d", "garbage"])
                #expect(info.status == 0 && info.stdout.contains("offline"), "\(info.stderr)")
                // tbrd still answers at once, and the router can be removed.
                #expect(try await rig.tbrctl(["router", "remove", "garbage"]).status == 0)
                #expect(try await rig.list().isEmpty)
                await rig.stopDaemon()
            }
        }
    }
}
