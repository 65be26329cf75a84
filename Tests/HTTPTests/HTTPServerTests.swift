import Glibc
import HTTP
import HTTPServer
import TBRTestKit
import Testing

/// The libmicrohttpd server the simulators serve REST with, driven by tbrd's own HTTP client: each
/// request reaches the handler whole, the answer goes back as given, an oversized body is refused.
@Suite struct HTTPServerTests {
    @Test func requestsReachTheHandlerWholeAndItsAnswersGoBack() async throws {
        let server = try HTTPServer.start(host: "127.0.0.1", port: 0) { request in
            let text = "\(request.method) \(request.path) \(request.contentType ?? "-") \(String(decoding: request.body, as: UTF8.self))"
            return HTTPServerResponse(status: request.path == "/missing" ? 404 : 200, contentType: "text/plain", body: Array(text.utf8))
        }
        defer { server.stop() }
        #expect(server.port != 0, "port 0 takes a free one, read back")
        let base = try HTTPURL("http://127.0.0.1:\(server.port)")
        let client = HTTPClient(timeout: .seconds(10))
        let put = try await client.send(
            HTTPRequest("PUT", base.appending("/node/state"), headers: [("Content-Type", "application/json; charset=utf-8")],
                        body: Array("\"enable\"".utf8)))
        #expect(put.status == 200 && put.text == "PUT /node/state application/json \"enable\"" && put.contentType == "text/plain")
        let get = try await client.send(HTTPRequest("GET", base.appending("/missing")))
        #expect(get.status == 404 && get.text == "GET /missing - ")
        let big = try await client.send(HTTPRequest("POST", base.appending("/x"), body: Array(repeating: 0x41, count: 200_000)))
        #expect(big.status == 413)
        // Many at once, in this process: one thread per connection on the server, a thread per transfer in
        // the client (blocking transfers on Dispatch's shared, width-limited pool starved the server's
        // handlers here), every answer its own.
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for i in 0..<20 { group.addTask { (i, try await client.send(HTTPRequest("GET", base.appending("/n\(i)"))).text) } }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect((0..<20).allSatisfy { answers[$0] == "GET /n\($0) - " })
    }

    /// One client address may hold only so many connections: the next is closed unanswered, and once
    /// one of its connections ends, it is served again.
    @Test func oneAddressCannotTakeEveryConnection() async throws {
        let server = try HTTPServer.start(host: "127.0.0.1", port: 0, limits: HTTPServer.Limits(connections: 16, connectionsPerAddress: 2)) { _ in
            HTTPServerResponse(status: 204)
        }
        defer { server.stop() }
        func connect() throws -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = server.port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let rc = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            try #require(fd >= 0 && rc == 0)
            var bound = timeval(tv_sec: 30, tv_usec: 0)  // bounds a failing test's wait only
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
            return fd
        }
        /// A request on `fd` and the first bytes of the answer; empty when the server closed it unanswered.
        func ask(_ fd: Int32) -> String {
            let request = Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
        }
        let first = try connect(), second = try connect()
        let third = try connect()
        #expect(ask(third) == "", "a third connection from the same address is closed unanswered")
        close(third)
        #expect(ask(first).hasPrefix("HTTP/1.1 204"), "the first two are served")
        close(first)
        close(second)
        try await eventually("the address is served again once its connections ended") {
            let fd = try connect()
            defer { close(fd) }
            return ask(fd).hasPrefix("HTTP/1.1 204")
        }
    }

    @Test func anAddressThatIsNotOneIsRefused() {
        #expect(throws: HTTPServerError.self) { try HTTPServer.start(host: "otbr.local", port: 0) { _ in HTTPServerResponse(status: 200) } }
    }

    @Test func headersGoBothWaysAndTheServersOwnHeadersAreOnEveryAnswer() async throws {
        let server = try HTTPServer.start(host: "127.0.0.1", port: 0, headers: ["Access-Control-Allow-Origin": "*", "X-Both": "server"]) {
            request in
            HTTPServerResponse(status: 200, headers: ["X-Both": "handler", "X-Seen": request.headers["x-test"] ?? "-"])
        }
        defer { server.stop() }
        let client = HTTPClient(timeout: .seconds(10))
        let base = try HTTPURL("http://127.0.0.1:\(server.port)")
        let ok = try await client.send(HTTPRequest("GET", base.appending("/h"), headers: [("X-Test", "a"), ("X-Test", "b")]))
        #expect(ok.headers["x-seen"] == "a, b", "a header sent twice reaches the handler joined")
        #expect(ok.headers["access-control-allow-origin"] == "*" && ok.headers["x-both"] == "handler")
        let big = try await client.send(HTTPRequest("POST", base.appending("/x"), body: Array(repeating: 0x41, count: 200_000)))
        #expect(big.status == 413 && big.headers["access-control-allow-origin"] == "*")
    }

    @Test func anIPv6AddressIsServedAndAStoppedPortTakenAgain() async throws {
        let server = try HTTPServer.start(host: "::1", port: 0) { _ in HTTPServerResponse(status: 204) }
        let client = HTTPClient(timeout: .seconds(10))
        let base = try HTTPURL("http://[::1]:\(server.port)")
        #expect(try await client.send(HTTPRequest("GET", base.appending("/"))).status == 204)
        await server.shutdown()
        await #expect(throws: HTTPError.self) { try await client.send(HTTPRequest("GET", base.appending("/"))) }
        let again = try HTTPServer.start(host: "::1", port: server.port) { _ in HTTPServerResponse(status: 200) }
        defer { again.stop() }
        #expect(again.port == server.port)
        #expect(try await client.send(HTTPRequest("GET", base.appending("/"))).status == 200)
    }
}
