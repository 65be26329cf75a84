#if canImport(Glibc)
import Glibc
#endif
import TBRFoundation
import Testing

/// The one address lookup and socket setup: numeric addresses both ways, a lookup that finds nothing
/// names the host, a bound socket reports the port the kernel chose, and a C error reads as the
/// system's sentence.
@Suite struct SocketAddressTests {
    @Test func numericAddressesResolveAndPrintBack() throws {
        let v4 = try #require(try SocketAddress.resolve(host: "127.0.0.1", port: 8081, .stream, .numericHost).first)
        #expect(v4.family == AF_INET)
        #expect(v4.description == "127.0.0.1:8081")
        let v6 = try #require(try SocketAddress.resolve(host: "::1", port: 49191, .datagram, .numericHost).first)
        #expect(v6.family == AF_INET6)
        #expect(v6.description == "[::1]:49191")
        #expect(v6.port == 49191)
    }

    @Test func aNameIsRefusedWhenOnlyNumbersAreAllowed() {
        #expect(throws: SocketAddress.LookupError.self) {
            try SocketAddress.resolve(host: "router.example", port: 80, .stream, .numericHost)
        }
        do {
            _ = try SocketAddress.resolve(host: "not an address", port: 80, .stream, .numericHost)
        } catch {
            #expect(error.description.hasPrefix("cannot resolve not an address: "))
        }
    }

    @Test func aSocketBoundToPortZeroReportsThePortItGot() throws {
        let loopback = try #require(try SocketAddress.resolve(host: "127.0.0.1", port: 0, .stream, [.numericHost, .passive]).first)
        let fd = try loopback.openSocket(.stream, nonBlocking: true)
        defer { close(fd) }
        try loopback.bind(fd, listening: 4)
        let local = try #require(SocketAddress.local(of: fd))
        #expect(local.port != 0)
        #expect(local.description == "127.0.0.1:\(local.port)")
        // A second socket on the same port and address is refused with the system's reason.
        let taken = try #require(try SocketAddress.resolve(host: "127.0.0.1", port: local.port, .stream, .numericHost).first)
        let other = try taken.openSocket(.stream)
        defer { close(other) }
        #expect(throws: Errno(EADDRINUSE)) { try taken.bind(other, listening: 4) }
    }

    @Test func anErrnoReadsAsTheSystemsSentence() {
        #expect(Errno(ECONNREFUSED).description == "Connection refused")
        #expect(Errno(rawValue: ENOENT) == Errno(ENOENT))
    }
}
