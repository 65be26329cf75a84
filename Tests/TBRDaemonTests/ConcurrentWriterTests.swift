import DBus
import Foundation
import TBRTestKit
import Testing

/// Reads of one structure never fail because another client creates and deletes other structures.
@Suite struct ConcurrentWriterTests {
    @Test func readsOfOneStructureSurviveAnotherBeingDeleted() async throws {
        try await withDaemon { env throws in
            try await env.startDaemon()
            _ = try await env.manager.call("CreateStructure", [.string("Home")])
            let home = try await env.manager.call("FindStructure", [.string("Home")])
            guard case .objectPath(let homePath)? = home.first else { Issue.record("no path"); return }
            let structure = RemoteObject(connection: env.client, destination: "io.tbrd", path: homePath, interface: "io.tbrd.Structure1")
            let failures = try await withStructureChurn(busAddress: env.address) { () async -> [String] in
                var failures: [String] = []
                for _ in 0..<150 {
                    do {
                        let listed = try await env.manager.call("ListStructures")
                        guard case .array(_, let rows) = listed[0], !rows.isEmpty else { failures.append("empty listing"); continue }
                        let all = try await structure.allProperties()
                        if all["Name"] != .string("Home") { failures.append("GetAll gave \(all["Name"].map { "\($0)" } ?? "no name")") }
                        _ = try await structure.property("BorderRouters")
                    } catch {
                        failures.append("\(error)")
                    }
                }
                return failures
            }
            #expect(failures.isEmpty, "\(failures.count) of 150 reads failed, first: \(failures.first ?? "")")
        }
    }
}

/// Hostile input over D-Bus: what tbrd echoes back is quoted, shortened and free of control characters.
@Suite struct HostileCallerTests {
    @Test func echoedInputIsQuotedAndShort() async throws {
        try await withDaemon { env throws in
            try await env.startDaemon()
            let huge = String(repeating: "x", count: 100_000)
            let calls: [(MemberName, [DBusValue])] = [
                ("CreateStructure", [.string(huge)]), ("FindStructure", [.string(huge)]), ("DeleteStructure", [.string(huge)]),
                ("FindBorderRouter", [.string(huge)]), ("AddBorderRouter", [.string(huge), .string(huge)]),
                ("EpskcEvents", [.uint64(0), .string(huge), .uint32(0)]), ("FindStructure", [.string("\u{1B}[2J\u{202E}Home")]),
            ]
            for (member, arguments) in calls {
                do {
                    _ = try await env.manager.call(member, arguments)
                    Issue.record("\(member) accepted a hostile argument")
                } catch let error as DBusError {
                    #expect(error.name.rawValue.hasPrefix("io.tbrd.Error."), "\(member): \(error.name)")
                    #expect(error.message.utf8.count < 300, "\(member) echoed \(error.message.utf8.count) bytes")
                    #expect(!error.message.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.value == 0x202E },
                            "\(member) echoed raw control characters")
                }
            }
            _ = try await env.manager.call("CreateStructure", [.string("Home")])
            let path = try await env.manager.call("FindStructure", [.string("Home")])
            guard case .objectPath(let p)? = path.first else { Issue.record("no path"); return }
            let home = RemoteObject(connection: env.client, destination: "io.tbrd", path: p, interface: "io.tbrd.Structure1")
            await #expect {
                try await home.setProperty("InternetAccessOption", .string(huge))
            } throws: { ($0 as? DBusError).map { $0.message.utf8.count < 300 && $0.message.contains("(100000 characters)") } ?? false }
        }
    }
}
