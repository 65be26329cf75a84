import DBus
import Foundation
import FoundationXML
import TBRTestKit
import Testing

/// An exported object used by independent clients (busctl, dbus-send) and by our own client.
@Suite struct ExportTests {
    static func thing(name: Box<String>) -> Interface {
        Interface(Pair.interface, methods: [
            Method("Add", inputs: [Argument("a", .int32), Argument("b", .int32)], outputs: [Argument("sum", .int32)]) { call in
                [.int32(try call.argument(0, as: Int32.self) &+ call.argument(1, as: Int32.self))]
            },
            Method("Describe", inputs: [Argument("items", .dictionary(key: .string, value: .variant))],
                   outputs: [Argument("count", .uint32), Argument("keys", .array(.string))]) { call in
                let d = try call.argument(0, as: [String: DBusValue].self)
                return [.uint32(UInt32(d.count)), DBusValue(d.keys.sorted())]
            },
        ], properties: [
            Property("Name", type: .string, get: { .string(await name.value) }, set: { value, _ in
                await name.set(try value.decode(as: String.self))
            }),
            Property("Version", type: .uint16, emitsChanged: .const, get: { .uint16(3) }),
        ], signals: [
            SignalDeclaration("Changed", arguments: [Argument("seq", .uint64), Argument("reason", .string)]),
        ])
    }

    @Test func busctlCallsMethodsAndReadsAndWritesProperties() async throws {
        let busctl = try Executables.find("busctl", package: "systemd")
        let name = Box("first")
        try await withPair([Self.thing(name: name)]) { pair in
            let addr = "--address=\(pair.bus.address)"
            let add = try await ProcessRunner.run(busctl, [addr, "call", "io.tbrd.Test", "/io/tbrd/Test", "io.tbrd.Test1", "Add", "ii", "40", "2"])
            #expect(add.status == 0, "\(add.stderr)")
            #expect(add.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "i 42")
            let get = try await ProcessRunner.run(busctl, [addr, "get-property", "io.tbrd.Test", "/io/tbrd/Test", "io.tbrd.Test1", "Name"])
            #expect(get.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"s "first""#)
            let set = try await ProcessRunner.run(busctl, [addr, "set-property", "io.tbrd.Test", "/io/tbrd/Test", "io.tbrd.Test1", "Name", "s", "second"])
            #expect(set.status == 0, "\(set.stderr)")
            #expect(await name.value == "second")
            let ro = try await ProcessRunner.run(busctl, [addr, "set-property", "io.tbrd.Test", "/io/tbrd/Test", "io.tbrd.Test1", "Version", "q", "4"])
            #expect(ro.status != 0)
            let desc = try await ProcessRunner.run(busctl, [addr, "call", "io.tbrd.Test", "/io/tbrd/Test", "io.tbrd.Test1", "Describe", "a{sv}", "2", "b", "u", "1", "a", "s", "x"])
            #expect(desc.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"uas 2 2 "a" "b""#)
            // busctl introspect parses our XML and lists every member with its signature.
            let intro = try await ProcessRunner.run(busctl, [addr, "introspect", "io.tbrd.Test", "/io/tbrd/Test", "io.tbrd.Test1"])
            #expect(intro.status == 0, "\(intro.stderr)")
            let lines = intro.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            #expect(lines.contains { $0.starts(with: [".Add", "method", "ii", "i"]) })
            #expect(lines.contains { $0.starts(with: [".Changed", "signal", "ts"]) })
            #expect(lines.contains { $0.starts(with: [".Name", "property", "s"]) && $0.contains("writable") })
            #expect(lines.contains { $0.starts(with: [".Version", "property", "q"]) && $0.contains("const") })
        }
    }

    @Test func dbusSendCallsMethodsPingsAndGetsStandardErrors() async throws {
        let dbusSend = try Executables.find("dbus-send", package: "dbus-bin")
        try await withPair([Self.thing(name: Box("x"))]) { pair in
            let bus = "--bus=\(pair.bus.address)"
            let r = try await ProcessRunner.run(dbusSend, [bus, "--print-reply", "--dest=io.tbrd.Test", "/io/tbrd/Test", "io.tbrd.Test1.Add", "int32:-5", "int32:3"])
            #expect(r.stdout.contains("int32 -2"), "\(r.stdout)\(r.stderr)")
            let ping = try await ProcessRunner.run(dbusSend, [bus, "--print-reply", "--dest=io.tbrd.Test", "/io/tbrd/Test", "org.freedesktop.DBus.Peer.Ping"])
            #expect(ping.status == 0, "\(ping.stderr)")
            let unknown = try await ProcessRunner.run(dbusSend, [bus, "--print-reply", "--dest=io.tbrd.Test", "/io/tbrd/Test", "io.tbrd.Test1.Nope"])
            #expect(unknown.stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"))
            let noObject = try await ProcessRunner.run(dbusSend, [bus, "--print-reply", "--dest=io.tbrd.Test", "/io/tbrd/Other", "io.tbrd.Test1.Add", "int32:1", "int32:1"])
            #expect(noObject.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"))
            let badArgs = try await ProcessRunner.run(dbusSend, [bus, "--print-reply", "--dest=io.tbrd.Test", "/io/tbrd/Test", "io.tbrd.Test1.Add", "string:x"])
            #expect(badArgs.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"))
            let noProp = try await ProcessRunner.run(dbusSend, [bus, "--print-reply", "--dest=io.tbrd.Test", "/io/tbrd/Test", "org.freedesktop.DBus.Properties.Get", "string:io.tbrd.Test1", "string:Missing"])
            #expect(noProp.stderr.contains("org.freedesktop.DBus.Error.UnknownProperty"))
        }
    }

    @Test func introspectionIsWellFormedXMLWithChildNodes() async throws {
        try await withPair([Self.thing(name: Box("x"))]) { pair in
            await pair.server.export([echoInterface()], at: "/io/tbrd/Test/child_one")
            let xml = try await pair.remote.introspect()
            let doc = try XMLDocument(xmlString: xml)
            let ifaces = try doc.nodes(forXPath: "/node/interface/@name").compactMap(\.stringValue)
            #expect(ifaces.contains("io.tbrd.Test1"))
            #expect(ifaces.contains("org.freedesktop.DBus.Properties"))
            #expect(ifaces.contains("org.freedesktop.DBus.Introspectable"))
            #expect(ifaces.contains("org.freedesktop.DBus.Peer"))
            let args = try doc.nodes(forXPath: "/node/interface[@name='io.tbrd.Test1']/method[@name='Describe']/arg").compactMap { $0 as? XMLElement }
            #expect(args.map { $0.attribute(forName: "type")?.stringValue } == ["a{sv}", "u", "as"])
            #expect(args.map { $0.attribute(forName: "direction")?.stringValue } == ["in", "out", "out"])
            let children = try doc.nodes(forXPath: "/node/node/@name").compactMap(\.stringValue)
            #expect(children == ["child_one"])
            // Parent nodes that hold nothing themselves still introspect and list the way down.
            let root = RemoteObject(connection: pair.client, destination: Pair.name, path: "/io", interface: Pair.interface)
            let rootDoc = try XMLDocument(xmlString: try await root.introspect())
            #expect(try rootDoc.nodes(forXPath: "/node/node/@name").compactMap(\.stringValue) == ["tbrd"])
        }
    }

    @Test func propertiesGetSetGetAllAndChangeSignals() async throws {
        let name = Box("one")
        try await withPair([Self.thing(name: name)]) { pair in
            let remote = pair.remote
            #expect(try await remote.property("Name", as: String.self) == "one")
            let changes = try await remote.propertiesChanged()
            try await remote.setProperty("Name", .string("two"))
            #expect(await name.value == "two")
            try pair.server.emitPropertiesChanged(path: Pair.path, interface: Pair.interface, changed: [("Name", .string("two"))])
            var it = changes.makeAsyncIterator()
            let signal = try #require(try await it.next())
            #expect(signal.arguments[0] == .string("io.tbrd.Test1"))
            #expect(try signal.arguments[1].decode(as: [String: DBusValue].self) == ["Name": .string("two")])
            let all = try await remote.allProperties()
            #expect(all == ["Name": .string("two"), "Version": .uint16(3)])
            await #expect(throws: DBusError.self) { try await remote.setProperty("Name", .uint32(1)) }
            await #expect(throws: DBusError.self) { try await remote.setProperty("Version", .uint16(9)) }
            #expect(await name.value == "two")
        }
    }
}
