import Foundation
import HTTP
import TBRTestKit
import Testing

/// The HTTP client against a server of the test's own (Python's http.server on loopback): what it sends
/// and reads, and every bound: no redirect followed, the size limit, the time limit, a refused port,
/// a cancelled caller, an https certificate that does not verify.
@Suite(.serialized) struct HTTPClientTests {
    static let server = #"""
        import http.server, socketserver, ssl, sys, time, threading
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def reply(self, status, body=b"", ctype="text/plain", extra=()):
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                for k, v in extra: self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)
            def do_GET(self):
                if self.path == "/ok": self.reply(200, b'"leader"', "application/json; charset=utf-8")
                elif self.path == "/redirect": self.reply(302, b"", extra=[("Location", "/ok")])
                elif self.path == "/big": self.reply(200, b"x" * (2 << 20))
                elif self.path == "/hang": time.sleep(30)
                else: self.reply(404, b'{"title":"Not Found","status":404,"detail":""}', "application/json")
            def do_PUT(self):
                n = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(n)
                self.reply(201, self.command.encode() + b" " + self.headers.get("Content-Type", "").encode() + b" " + body)
            def do_DELETE(self):
                self.reply(200, b"deleted")
        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
        httpd = Server(("127.0.0.1", 0), Handler)
        if len(sys.argv) > 1:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
        print(httpd.server_address[1], flush=True)
        httpd.serve_forever()
        """#

    /// Starts the server (https with `certificate` and `key` when given) and returns it with its base URL.
    static func start(tls: (certificate: String, key: String)? = nil) async throws -> (TestProcess, HTTPURL) {
        let directory = try TemporaryDirectory.make(prefix: "tbrd-http")
        let python = try Executables.find("python3", package: "python3")
        let process = try TestProcess(python, ["-c", server] + (tls.map { [$0.certificate, $0.key] } ?? []), directory: directory)
        var port: UInt16?
        try await eventually("the server listens", timeout: .seconds(20), wakingOn: process.wakeups) {
            guard process.isRunning || !process.stdout.isEmpty else { throw TestKitError("the server exited: \(process.stderr)") }
            port = process.stdout.split(separator: "\n").first.flatMap { UInt16($0) }
            return port != nil
        }
        return (process, try HTTPURL("\(tls == nil ? "http" : "https")://127.0.0.1:\(port!)"))
    }

    @Test func statusesBodiesAndMethodsAsTheServerSentThem() async throws {
        let (server, base) = try await Self.start()
        let client = HTTPClient(timeout: .seconds(10))
        let ok = try await client.send(HTTPRequest("GET", base.appending("/ok")))
        #expect(ok.status == 200 && ok.text == "\"leader\"" && ok.contentType == "application/json")
        let put = try await client.send(
            HTTPRequest("PUT", base.appending("/node/state"), headers: [("Content-Type", "application/json")], body: Array("\"enable\"".utf8)))
        #expect(put.status == 201 && put.text == "PUT application/json \"enable\"")
        let deleted = try await client.send(HTTPRequest("DELETE", base.appending("/node")))
        #expect(deleted.status == 200 && deleted.text == "deleted")
        // An error status is an answer, not a failure.
        let missing = try await client.send(HTTPRequest("GET", base.appending("/nothing")))
        #expect(missing.status == 404 && missing.text.contains("Not Found"))
        // A redirect is not followed: the 302 itself is the answer.
        let redirect = try await client.send(HTTPRequest("GET", base.appending("/redirect")))
        #expect(redirect.status == 302)
        await server.terminate()
    }

    @Test func aLongAnswerASilentServerANobodyAndACancelledCallerFailSayingSo() async throws {
        let (server, base) = try await Self.start()
        let big = HTTPClient(timeout: .seconds(10), maximumResponseBytes: 1 << 20)
        do {
            _ = try await big.send(HTTPRequest("GET", base.appending("/big")))
            Issue.record("a 2 MiB answer was accepted")
        } catch {
            #expect(error.kind == .tooLarge && error.message.contains("1048576 bytes"), "\(error)")
        }
        let quick = HTTPClient(timeout: .milliseconds(500))
        do {
            _ = try await quick.send(HTTPRequest("GET", base.appending("/hang")))
            Issue.record("a server that never answers answered")
        } catch {
            #expect(error.kind == .timedOut, "\(error)")
        }
        // A port nobody listens on (the server's, once it is gone).
        await server.terminate()
        do {
            _ = try await quick.send(HTTPRequest("GET", base.appending("/ok")))
            Issue.record("a closed port answered")
        } catch {
            #expect(error.kind == .unreachable && error.message.contains(base.description), "\(error)")
        }
    }

    @Test func aCancelledCallerStopsItsTransfer() async throws {
        let (server, base) = try await Self.start()
        let client = HTTPClient(timeout: .seconds(60))
        let call = Task { try await client.send(HTTPRequest("GET", base.appending("/hang"))) }
        call.cancel()
        do {
            _ = try await call.value
            Issue.record("a cancelled call answered")
        } catch let error as HTTPError {
            #expect(error.kind == .cancelled, "\(error)")
        }
        await server.terminate()
    }

    @Test func anHTTPSCertificateThatDoesNotVerifyIsRefused() async throws {
        let directory = try TemporaryDirectory.make(prefix: "tbrd-tls")
        let cert = directory.appendingPathComponent("cert.pem").path, key = directory.appendingPathComponent("key.pem").path
        let made = try await ProcessRunner.run(
            try Executables.find("openssl", package: "openssl"),
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"],
            timeout: .seconds(30))
        #expect(made.status == 0, "\(made.stderr)")
        let (server, base) = try await Self.start(tls: (cert, key))
        do {
            _ = try await HTTPClient(timeout: .seconds(10)).send(HTTPRequest("GET", base.appending("/ok")))
            Issue.record("a self-signed certificate was accepted")
        } catch {
            #expect(error.kind == .tls, "\(error)")
        }
        await server.terminate()
    }

    @Test func onlyHTTPURLsWithAHostAndNoUserInformation() throws {
        #expect(try HTTPURL("http://192.0.2.1:8081").description == "http://192.0.2.1:8081")
        #expect(try HTTPURL("https://[fd00::1]:8081/").host == "fd00::1")
        #expect(try HTTPURL("http://otbr.local:8081/api").appending("/node").description == "http://otbr.local:8081/api/node")
        for bad in ["ftp://x", "http://", "http://user:pw@host", "not a url", "http://h/?q=1", "file:///etc/passwd", "http://h:0"] {
            #expect(throws: HTTPURLError.self, "\(bad)") { try HTTPURL(bad) }
        }
    }
}
