import DBus
import Foundation
import TBRFoundation
import TBRTestKit
import Testing

/// A router whose otbr-agent is off the bus: tbrd answers with what it last reported (across restarts
/// too), shows no live-looking role, and refuses operations with `Unavailable`.
@Suite struct OfflineRouterTests {
    @Test func anOfflineRouterAnswersWithWhatItLastReported() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator()
            try await env.startDaemon()
            let wpan1 = env.router("wpan1")
            try await eventually("wpan1 is a leader", wakingOn: wpan1.wakeups) { try await wpan1.property("Role", as: String.self) == "leader" }
            #expect(try await wpan1.allProperties()["NetworkName"] == .string("OpenThreadDemo"))
            let changes = try await wpan1.propertiesChanged()
            _ = try await env.simulatorControl("wpan1").call("Crash", [.uint32(600_000)])
            // Going offline signals the role as "" together with Online false.
            for try await s in changes {
                let changed = try s.arguments[1].decode(as: [String: DBusValue].self)
                if changed["Online"] == .bool(false) {
                    #expect(changed["Role"] == .string(""))
                    break
                }
            }

            func checkOffline() async throws {
                let all = try await wpan1.allProperties()
                #expect(all["Online"] == .bool(false))
                #expect(all["Role"] == .string(""), "no live-looking role for an offline router")
                #expect(all["NetworkName"] == .string("OpenThreadDemo") && all["PanId"] == .uint16(0x1234))
                #expect(all["EpskcSupported"] == .bool(true) && all["InternetAccessCapability"] == .string("nat64Only"))
                let list = try await env.manager.call("ListBorderRouters")
                guard case .array(_, let rows) = list[0] else { Issue.record("no list"); return }
                let row = try #require(rows.first { row in
                    if case .structure(let f) = row { return f[1] == .string("wpan1") } else { return false }
                })
                guard case .structure(let f) = row else { return }
                #expect(f[3] == .bool(false) && f[4] == .string("") && f[5] == .string("OpenThreadDemo") && f[7] == .bool(true),
                        "ListBorderRouters and the properties agree")
                for (member, arguments) in [
                    ("ActivateEpskcMode", [DBusValue.uint16(30)]),
                    ("JoinNetwork", [.bytes(try Hex.decode(demoDataset)), .dictionary(key: .string, value: .variant, [])]),
                ] as [(MemberName, [DBusValue])] {
                    await #expect {
                        _ = try await wpan1.call(member, arguments)
                    } throws: { error in
                        (error as? DBusError)?.name.rawValue == "io.tbrd.Error.Unavailable"
                            && (error as? DBusError)?.message == "the otbr-agent of wpan1 is not running"
                    }
                }
            }
            try await checkOffline()
            // What it last reported is kept across a restart of tbrd.
            await env.stopDaemon()
            try await env.startDaemon()
            try await checkOffline()
        }
    }
}
