import DBus
import Foundation
import TBRDBusAPI
import TBRTestKit
import Testing

/// What tbrd serves is the contract in TBRDBusAPI (docs/dbus-api.md), and the properties that
/// introspection says emit `PropertiesChanged` really do.
@Suite struct ContractTests {
    /// The properties of `interface` in introspection XML: name → (type, EmitsChangedSignal value).
    static func properties(in xml: String, interface: String) throws -> [String: (type: String, emits: String)] {
        let start = try #require(xml.range(of: "<interface name=\"\(interface)\">"))
        let end = try #require(xml.range(of: "</interface>", range: start.upperBound..<xml.endIndex))
        let body = String(xml[start.upperBound..<end.lowerBound])
        let pattern = try NSRegularExpression(
            pattern: #"<property name="([A-Za-z]+)" type="([^"]+)" access="[a-z]+"(/>|>\s*<annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="([a-z]+)"/>)"#)
        var found: [String: (String, String)] = [:]
        for m in pattern.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
            func group(_ i: Int) -> String? { Range(m.range(at: i), in: body).map { String(body[$0]) } }
            found[group(1)!] = (group(2)!, group(4) ?? "true")
        }
        return found
    }

    @Test func introspectionIsTheContract() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon()
            _ = try await env.manager.call("CreateStructure", [.string("Home")])
            let routerXML = try await env.router("wpan0").introspect()
            let router = try Self.properties(in: routerXML, interface: "io.tbrd.BorderRouter1")
            #expect(Set(router.keys) == Set(TBRDBusAPI.BorderRouter.Property.allCases.map(\.rawValue)))
            for p in TBRDBusAPI.BorderRouter.Property.allCases {
                #expect(router[p.rawValue]?.type == p.type.text && router[p.rawValue]?.emits == p.emitsChanged.rawValue, "\(p)")
            }
            #expect(router["Structure"]?.emits == "true")
            let path = try await env.manager.call("FindStructure", [.string("Home")])
            guard case .objectPath(let structurePath)? = path.first else { Issue.record("no structure path"); return }
            let structureXML = try await RemoteObject(
                connection: env.client, destination: "io.tbrd", path: structurePath, interface: "io.tbrd.Structure1"
            ).introspect()
            let structure = try Self.properties(in: structureXML, interface: "io.tbrd.Structure1")
            for p in TBRDBusAPI.Structure.Property.allCases {
                #expect(structure[p.rawValue]?.type == p.type.text && structure[p.rawValue]?.emits == p.emitsChanged.rawValue, "\(p)")
            }
            // Every method of the contract is served with its signature.
            let managerXML = try await env.manager.introspect()
            #expect(managerXML.contains(#"<arg type="a(ossbsssb)" name="routers" direction="out"/>"#))
            #expect(managerXML.contains(#"<arg type="a(tssssxxq)" name="events" direction="out"/>"#))
            #expect(managerXML.contains(#"<arg type="a(os)" name="structures" direction="out"/>"#))
        }
    }

    @Test func aRoutersStructureIsSignalledWhenItJoinsLeavesOrItsStructureIsDeleted() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon()
            let changes = try await env.router("wpan0").propertiesChanged()
            var structures = changes.compactMap { s -> String? in
                let changed = try s.arguments[1].decode(as: [String: DBusValue].self)
                return try changed["Structure"].map { try $0.decode(as: String.self) }
            }.makeAsyncIterator()
            _ = try await env.manager.call("CreateStructure", [.string("Home")])
            _ = try await env.manager.call("AddBorderRouter", [.string("Home"), .string("wpan0")])
            #expect(try await structures.next() == "Home")
            _ = try await env.manager.call("RemoveBorderRouter", [.string("Home"), .string("wpan0")])
            #expect(try await structures.next() == "")
            _ = try await env.manager.call("AddBorderRouter", [.string("Home"), .string("wpan0")])
            #expect(try await structures.next() == "Home")
            _ = try await env.manager.call("DeleteStructure", [.string("Home")])
            #expect(try await structures.next() == "")
            #expect(try await env.router("wpan0").property("Structure", as: String.self) == "")
        }
    }

    @Test func configuredNamesFillBasicInformation() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            try await env.startDaemon(try env.configuration("vendor-name = Acme Homes\nproduct-name = Hub 2\n"))
            #expect(try await env.router("wpan0").property("VendorName", as: String.self) == "Acme Homes")
            #expect(try await env.router("wpan0").property("ProductName", as: String.self) == "Hub 2")
        }
    }
}

/// tbrd is a production binary: it contains no simulator, and nothing in its configuration starts one.
@Suite struct ProductionBinaryTests {
    @Test func tbrdLinksNoSimulatorAndRefusesToStartOne() async throws {
        let tbrd = try Executables.product("tbrd")
        let binary = try Data(contentsOf: URL(fileURLWithPath: tbrd))
        for marker in ["OTBRSimulator", "io.tbrd.Simulator1", "SimulatedAgent", "MatterSimulator", "SimulatedCommissioner", "sim_set_available"] {
            #expect(binary.range(of: Data(marker.utf8)) == nil, "tbrd contains \(marker)")
        }
        let option = try await ProcessRunner.run(tbrd, ["--simulate", "2"])
        #expect(option.status == 64, "\(option.stderr)")
        let dir = try TemporaryDirectory.make(prefix: "tbrd-conf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("tbrd.conf")
        try "simulate = 2\n".write(to: conf, atomically: true, encoding: .utf8)
        let setting = try await ProcessRunner.run(tbrd, ["--config", conf.path])
        #expect(setting.status == 78 && setting.stderr.contains("unknown setting 'simulate'"), "\(setting.stderr)")
        // The simulated Matter commissioner is gone too: its setting says where it went.
        try "matter-backend = simulated\n".write(to: conf, atomically: true, encoding: .utf8)
        let matter = try await ProcessRunner.run(tbrd, ["--config", conf.path])
        #expect(matter.status == 78 && matter.stderr.contains("run matter-sim"), "\(matter.stderr)")
    }
}
