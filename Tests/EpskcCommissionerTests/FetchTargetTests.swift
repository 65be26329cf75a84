import BorderAgentDiscovery
import DTLS
import MeshCoP
import Testing

@testable import EpskcCommissioner

@Suite("Which border agent a fetch goes to")
struct FetchTargetTests {
    static func agent(_ name: String, id: UInt8, key port: UInt16?, addresses: [String] = ["fe80::1", "192.0.2.7", "fd00::7"]) -> BorderAgent {
        let txt = MeshCoPTXTRecord(entries: [
            TXTEntry(key: "id", value: [UInt8](repeating: id, count: 16)), TXTEntry(key: "vn", text: "Acme"), TXTEntry(key: "mn", text: "Hub"),
        ])
        return BorderAgent(instanceName: name, hostName: "h\(id).local", addresses: addresses, port: 49152, txt: txt, ephemeralKeyPort: port)
    }

    @Test("the only agent with a key, its best address, and what its TXT record says")
    func onlyActive() throws {
        let agents = [Self.agent("A #1", id: 1, key: 49200), Self.agent("B #2", id: 2, key: nil)]
        let (address, source) = try FetchTarget(parsing: nil).resolve(in: agents)
        #expect(address.description == "[fd00::7]:49200", "a routable IPv6 address before IPv4 and link-local")
        #expect(source.instance == "A #1" && source.vendorName == "Acme" && source.productName == "Hub")
        #expect(source.borderAgentId == String(repeating: "01", count: 16))
    }

    @Test("several keys, none, a name without a key, an unknown name")
    func errors() {
        let two = [Self.agent("A #1", id: 1, key: 49200), Self.agent("B #2", id: 2, key: 49300)]
        #expect(throws: FetchTarget.ResolutionError.several(["\"A #1\" (h1.local)", "\"B #2\" (h2.local)"])) {
            try FetchTarget(parsing: nil).resolve(in: two)
        }
        #expect(throws: FetchTarget.ResolutionError.noneActive) { try FetchTarget(parsing: nil).resolve(in: []) }
        let quiet = [Self.agent("A #1", id: 1, key: nil)]
        #expect(throws: FetchTarget.ResolutionError.notFound("\"A #1\"", seen: true)) { try FetchTarget(parsing: "A #1").resolve(in: quiet) }
        #expect(throws: FetchTarget.ResolutionError.notFound("\"Z\"", seen: false)) { try FetchTarget(parsing: "Z").resolve(in: quiet) }
    }

    @Test("[ADDR]:PORT is used as given; an instance or Border Agent ID is settled once its key shows")
    func literalAndSettled() throws {
        #expect(FetchTarget(parsing: "[::1]:49152") == .address(UDPAddress(host: "::1", port: 49152)!))
        #expect(FetchTarget(parsing: "127.0.0.1:5") == .address(UDPAddress(host: "127.0.0.1", port: 5)!))
        #expect(FetchTarget(parsing: "::1") == .instance("::1"), "an address needs its port")
        #expect(UDPAddress(parsing: "[::1]:0") == nil && UDPAddress(parsing: "host:1") == nil && UDPAddress(parsing: "[::1]:70000") == nil)
        let id = try BorderAgentID(bytes: [UInt8](repeating: 3, count: 16))
        let target = FetchTarget.borderAgent(id, router: "wpan3")
        #expect(!target.isSettled(by: [Self.agent("C", id: 3, key: nil)]))
        #expect(target.isSettled(by: [Self.agent("C", id: 3, key: 1)]))
    }
}
