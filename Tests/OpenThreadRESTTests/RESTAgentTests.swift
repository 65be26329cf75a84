import Foundation
import HTTP
import MeshCoP
import OpenThreadBR
import OpenThreadREST
import TBRTestKit
import Testing

/// The REST client against a scripted agent that answers as `../shared/otbr/rest.md` says a real one
/// does (upper-case hex with TLV 0x4A added, 409 while Thread is enabled, key states), and against a
/// hostile one (HTML, wrong JSON types, an endless body, 500s): typed values, or an error naming the
/// agent, never a crash.
@Suite(.serialized) struct RESTAgentTests {
    static let agent = #"""
        import http.server, json, socketserver, sys
        MODE = sys.argv[1]
        state = {"role": "disabled", "active": None, "epskc": "stopped", "port": 0}
        BAID = "0123456789ABCDEF0123456789ABCDEF"
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def reply(self, status, body=b"", ctype="application/json"):
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def problem(self, status, title):
                self.reply(status, json.dumps({"title": title, "status": status, "detail": ""}).encode())
            def body(self):
                return self.rfile.read(int(self.headers.get("Content-Length", "0")))
            def do_GET(self):
                p = self.path
                if MODE == "web":
                    return self.reply(200, b"<html><body>router admin</body></html>", "text/html")
                if MODE == "hostile":
                    if p == "/node": return self.reply(200, b"<html>oops</html>", "text/html")
                    if p == "/node/state": return self.reply(200, b'{"state": 3}')
                    if p == "/node/ba-epskc/key": return self.reply(200, b'{"state": "exploded", "port": 1}')
                    if p == "/node/dataset/active": return self.reply(200, b"ZZ" * 10, "text/plain")
                    if p == "/node/ba-id": return self.reply(200, b'"' + b"A" * (2 << 20) + b'"')
                    return self.problem(500, "Internal Server Error")
                if p == "/.well-known/thread/br-rest":
                    if MODE == "old": return self.problem(404, "Not Found")
                    return self.reply(200, json.dumps({"api": {"version": "0.5.0", "base": "/api/"}, "links": []}).encode())
                if p == "/node/ba-id": return self.reply(200, json.dumps(BAID).encode())
                if p == "/node/state": return self.reply(200, json.dumps(state["role"]).encode())
                if p == "/node":
                    return self.reply(200, json.dumps({"baId": BAID, "state": state["role"], "networkName": "Home", "extPanId": "1111111122222222",
                        "rloc16": "0xfc00", "extAddress": "aabbccddeeff0011", "routerCount": 1}).encode())
                if p == "/node/dataset/active":
                    if state["active"] is None: return self.reply(204)
                    return self.reply(200, ("4A03000019" + state["active"]).upper().encode(), "text/plain")
                if p == "/node/ba-epskc/state": return self.reply(200, b'"enabled"')
                if p == "/node/ba-epskc/key": return self.reply(200, json.dumps({"state": state["epskc"], "port": state["port"]}).encode())
                self.problem(404, "Not Found")
            def do_PUT(self):
                p, b = self.path, self.body()
                if p == "/node/state":
                    state["role"] = "leader" if json.loads(b) == "enable" else "disabled"
                    return self.reply(200)
                if p == "/node/dataset/active":
                    if state["role"] != "disabled": return self.problem(409, "Conflict")
                    created = state["active"] is None
                    state["active"] = b.decode()
                    return self.reply(201 if created else 200)
                self.problem(404, "Not Found")
            def do_POST(self):
                if self.path == "/node/ba-epskc/key":
                    lifetime = json.loads(self.body() or b"{}").get("lifetime", 120000)
                    if lifetime > 600000: return self.problem(400, "Bad Request")
                    if state["epskc"] == "started": return self.problem(409, "Conflict")
                    state["epskc"], state["port"] = "started", 49155
                    return self.reply(200, json.dumps({"tap": "055248544", "port": 49155}).encode())
                self.problem(404, "Not Found")
            def do_DELETE(self):
                if MODE == "hostile": return self.problem(500, "Internal Server Error")
                if self.path == "/node/ba-epskc/key":
                    state["epskc"], state["port"] = "stopped", 0
                    return self.reply(200)
                if self.path == "/node":
                    state["active"], state["role"] = None, "disabled"
                    return self.reply(200)
                self.problem(404, "Not Found")
        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
        httpd = Server(("127.0.0.1", 0), Handler)
        print(httpd.server_address[1], flush=True)
        httpd.serve_forever()
        """#

    /// Runs `body` with the scripted agent in `mode` (`agent`, `old`, `web`, `hostile`) and a client of it.
    static func withAgent(_ mode: String, _ body: (RESTAgent) async throws -> Void) async throws {
        let directory = try TemporaryDirectory.make(prefix: "tbrd-rest")
        let process = try TestProcess(try Executables.find("python3", package: "python3"), ["-c", agent, mode], directory: directory)
        var port: UInt16?
        try await eventually("the agent listens", timeout: .seconds(20), wakingOn: process.wakeups) {
            guard process.isRunning || !process.stdout.isEmpty else { throw TestKitError("the agent exited: \(process.stderr)") }
            port = process.stdout.split(separator: "\n").first.flatMap { UInt16($0) }
            return port != nil
        }
        do {
            try await body(RESTAgent(base: try HTTPURL("http://127.0.0.1:\(port!)"), http: HTTPClient(timeout: .seconds(10))))
        } catch {
            await process.terminate()
            throw error
        }
        await process.terminate()
    }

    @Test func anAgentIsRecognisedAndManagedAsTheRealOneAnswers() async throws {
        try await Self.withAgent("agent") { agent in
            let identity = try await agent.identify()
            #expect(identity.borderAgentID.description.uppercased() == "0123456789ABCDEF0123456789ABCDEF" && identity.apiVersion == "0.5.0")
            #expect(try await agent.role() == .disabled)
            #expect(try await agent.dataset(pending: false) == nil, "204: no dataset")
            let dataset = try OperationalDataset.random(name: NetworkName("Home"), extendedPANID: ExtendedPANID(0x1111_1111_2222_2222))
            #expect(try await agent.setDataset(dataset.encoded(), pending: false) == .created)
            // The agent answers upper-case hex with the Wake-up Channel TLV (0x4A) in front.
            let read = try #require(try await agent.dataset(pending: false))
            #expect(Array(read.prefix(5)) == [0x4A, 0x03, 0x00, 0x00, 0x19])
            #expect(try OperationalDataset(bytes: read).extendedPANID == dataset.extendedPANID)
            try await agent.setThreadEnabled(true)
            #expect(try await agent.role() == .leader)
            // 409 while Thread is enabled.
            do throws(RESTAgentError) {
                try await agent.setDataset(dataset.encoded(), pending: false)
                Issue.record("a dataset was written while Thread was enabled")
            } catch {
                #expect(error.kind == .refused && error.status == 409 && error.message.contains("409 (Conflict)"), "\(error)")
            }
            let node = try await agent.node()
            #expect(node.role == .leader && node.networkName == "Home" && node.extendedPANID == ExtendedPANID(0x1111_1111_2222_2222))
            // Keys.
            #expect(try await agent.epskcEnabled())
            let grant = try await agent.startEpskc(lifetime: .seconds(30))
            #expect(grant.key.digits == "055248544" && grant.port == 49155)
            #expect(!"\(grant)".contains("055248544"), "the key is redacted in descriptions")
            #expect(try await agent.epskcState() == RESTEpskcKeyState(state: .started, port: 49155))
            do throws(RESTAgentError) {
                _ = try await agent.startEpskc(lifetime: .seconds(30))
                Issue.record("a second key started")
            } catch {
                #expect(error.kind == .refused && error.status == 409)
            }
            try await agent.stopEpskc()
            #expect(try await agent.epskcState().state == .stopped)
            do throws(RESTAgentError) {
                _ = try await agent.startEpskc(lifetime: .seconds(601))
                Issue.record("a lifetime over 600 s was taken")
            } catch {
                #expect(error.kind == .refused && error.status == 400)
            }
            try await agent.eraseNode()
            #expect(try await agent.dataset(pending: false) == nil)
        }
    }

    @Test func anOlderAgentWithoutTheWellKnownDescriptionIsRecognisedByItsBorderAgentID() async throws {
        try await Self.withAgent("old") { agent in
            let identity = try await agent.identify()
            #expect(identity.apiVersion == nil)
        }
    }

    @Test func somethingElseAnsweringIsNotAnAgentAndSaysWhatAnswered() async throws {
        try await Self.withAgent("web") { agent in
            do throws(RESTAgentError) {
                _ = try await agent.identify()
                Issue.record("a web page was taken for an agent")
            } catch {
                #expect(error.kind == .notAnAgent && error.message.contains(agent.base.description), "\(error)")
            }
        }
    }

    @Test func aHostileAgentGetsErrorsNamingItNeverACrash() async throws {
        try await Self.withAgent("hostile") { agent in
            func kind(_ body: () async throws(RESTAgentError) -> Void) async -> RESTAgentError.Kind? {
                do { try await body() } catch { return error.kind }
                return nil
            }
            #expect(await kind { () async throws(RESTAgentError) in _ = try await agent.node() } == .invalidResponse, "HTML instead of JSON")
            #expect(await kind { () async throws(RESTAgentError) in _ = try await agent.role() } == .invalidResponse, "wrong JSON type")
            #expect(await kind { () async throws(RESTAgentError) in _ = try await agent.epskcState() } == .invalidResponse, "an unknown key state")
            #expect(await kind { () async throws(RESTAgentError) in _ = try await agent.dataset(pending: false) } == .invalidResponse, "not hex")
            #expect(await kind { () async throws(RESTAgentError) in _ = try await agent.identify() } != nil, "a 2 MiB Border Agent ID")
            #expect(await kind { () async throws(RESTAgentError) in try await agent.stopEpskc() } == .refused, "500")
        }
    }
}
