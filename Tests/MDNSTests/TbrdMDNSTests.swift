import Foundation
import TBRTestKit
import Testing

extension LANTests {
    /// tbrd browsing a real LAN: names from the `_meshcop._udp` TXT record, keys started outside tbrd
    /// reported as sessions, `_meshcop-e._udp` as an end signal, and an avahi-daemon restart.
    @Suite struct TbrdMDNSTests {
        /// `tbrctl --json info` through tbrd.
        static func info(_ rig: LANRig) async throws -> [String: Any] {
            let result = try await rig.tbrctl(["--json", "info", "-d", "wpan0"])
            guard result.status == 0 else { throw TestKitError("tbrctl info failed: \(result.stderr)") }
            return (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        }

        static func names(_ rig: LANRig) async throws -> (String?, String?) {
            let basic = try await info(rig)["basicInformation"] as? [String: Any]
            return (basic?["vendorName"] as? String, basic?["productName"] as? String)
        }

        @Test func namesComeFromTXTAndKeysStartedOnTheAgentAreReportedWithTheirReasons() async throws {
            try await withLANRig { rig in
                try await rig.startSimulator(["--vendor", "Acme Labs", "--product", "Hub 9"])
                try await rig.startDaemon()
                try await eventually("tbrd serves the advertised names", timeout: .seconds(15)) {
                    try await rig.servedNames() == ("Acme Labs", "Hub 9")
                }
                #expect(try await Self.names(rig) == ("Acme Labs", "Hub 9"))
                let watcher = try await rig.watch()

                // 1. A key started directly on the agent (as otbr's REST API or ot-ctl would) that expires.
                #expect(try await rig.agentCall("wpan0", "ActivateEphemeralKeyMode", "u", ["2000"]).status == 0)
                try await eventually("the key started elsewhere is reported", timeout: .seconds(10), wakingOn: watcher.wakeups) {
                    LANRig.events(watcher).contains { $0["event"] as? String == "epskcModeActivated" }
                }
                try await eventually("and its end, expired", timeout: .seconds(10), wakingOn: watcher.wakeups) {
                    LANRig.events(watcher).contains { $0["reason"] as? String == "expired" }
                }

                // 2. One that a commissioner uses: busctl prints the key the agent returns (s "123456789").
                let granted = try await rig.agentCall("wpan0", "ActivateEphemeralKeyMode", "u", ["60000"])
                #expect(granted.status == 0)
                let key = try #require(granted.stdout.split(separator: "\"").dropFirst().first.map(String.init))
                try await eventually("the second key is reported", timeout: .seconds(10), wakingOn: watcher.wakeups) {
                    LANRig.events(watcher).filter { $0["event"] as? String == "epskcModeActivated" }.count == 2
                }
                #expect(try await rig.control("wpan0", "UseEphemeralKey", "s", [key]).stdout.contains("true"))
                try await eventually("its end, keyUsed", timeout: .seconds(10), wakingOn: watcher.wakeups) {
                    LANRig.events(watcher).contains { $0["reason"] as? String == "keyUsed" }
                }

                // 3. One that tbrctl ends.
                #expect(try await rig.agentCall("wpan0", "ActivateEphemeralKeyMode", "u", ["60000"]).status == 0)
                try await eventually("the third key is reported", timeout: .seconds(10), wakingOn: watcher.wakeups) {
                    LANRig.events(watcher).filter { $0["event"] as? String == "epskcModeActivated" }.count == 3
                }
                let deactivate = try await rig.tbrctl(["epskc", "deactivate", "-d", "wpan0"])
                #expect(deactivate.status == 0, "\(deactivate.stderr)")
                try await eventually("its end, cancelled", timeout: .seconds(10), wakingOn: watcher.wakeups) {
                    LANRig.events(watcher).contains { $0["reason"] as? String == "cancelled" }
                }
                let events = LANRig.events(watcher)
                #expect(events.count == 6, "\(events)")
                #expect(events.map { $0["event"] as? String } == Array(repeating: ["epskcModeActivated", "epskcModeDeactivated"], count: 3).flatMap { $0 })
                // Journalled like tbrd's own: valid seconds 0 (unknown) in the journal.
                let journal = try await rig.tbrctl(["epskc", "watch", "--since", "0", "--timeout", "0.5"])
                #expect(journal.stdout.contains("started outside tbrd, validity unknown"), "\(journal.stdout)")
            }
        }

        @Test func withoutTelemetryTheServiceGoingAwayAloneEndsASessionWithinTwoSeconds() async throws {
            try await withLANRig { rig in
                try await rig.startSimulator(["--no-telemetry"])
                try await rig.startDaemon()
                let watcher = try await rig.watch()
                let activate = try await rig.tbrctl(["epskc", "activate", "-d", "wpan0", "--duration", "300"])
                #expect(activate.status == 0, "\(activate.stderr)")
                // Wait until tbrd has seen the key's service, so its going away is what ends the session.
                try await eventually("tbrd saw the _meshcop-e._udp service", timeout: .seconds(10), wakingOn: #require(rig.daemon).wakeups) {
                    rig.daemon?.stderr.contains("_meshcop-e._udp service appeared") == true
                }
                // The key ends on the agent and nothing on D-Bus says so: only mDNS can tell.
                #expect(try await rig.control("wpan0", "EndEphemeralKeyEarly").stdout.contains("true"))
                let ended = ContinuousClock.now
                try await eventually("the session ends", timeout: .seconds(2), wakingOn: watcher.wakeups) {
                    LANRig.events(watcher).contains { $0["event"] as? String == "epskcModeDeactivated" }
                }
                #expect(ContinuousClock.now - ended < .seconds(2))
                let end = try #require(LANRig.events(watcher).last)
                #expect(end["reason"] as? String == "unspecified" && end["detail"] as? String == "endedEarly")

                // A key started elsewhere, without telemetry: opened on its service, ended on its going away.
                #expect(try await rig.agentCall("wpan0", "ActivateEphemeralKeyMode", "u", ["60000"]).status == 0)
                try await eventually("the key started elsewhere is reported", timeout: .seconds(10), wakingOn: watcher.wakeups) {
                    LANRig.events(watcher).filter { $0["event"] as? String == "epskcModeActivated" }.count == 2
                }
                #expect(try await rig.agentCall("wpan0", "DeactivateEphemeralKeyMode", "b", ["false"]).status == 0)
                try await eventually("and its end", timeout: .seconds(3), wakingOn: watcher.wakeups) {
                    LANRig.events(watcher).filter { $0["event"] as? String == "epskcModeDeactivated" }.count == 2
                }
                let foreignEnd = try #require(LANRig.events(watcher).last)
                // Validity unknown: not "endedEarly", nothing says why.
                #expect(foreignEnd["reason"] as? String == "unspecified" && foreignEnd["detail"] == nil)
            }
        }

        @Test func discoveryAndMatchingRecoverFromAnAvahiDaemonRestartWithoutRestartingTbrd() async throws {
            try await withLANRig { rig in
                try await rig.startSimulator()
                try await rig.startDaemon()
                try await eventually("tbrd matched the router", timeout: .seconds(15)) {
                    try await rig.servedNames() == ("OpenThread", "BorderRouter")
                }
                // tbrd's own avahi-daemon is killed (no goodbye), then comes back.
                await rig.browser.stopAvahi()
                try await eventually("tbrd noticed", timeout: .seconds(5), wakingOn: #require(rig.daemon).wakeups) {
                    rig.daemon?.stderr.contains("lost the connection to avahi-daemon") == true
                }
                try await rig.browser.startAvahi()
                try await eventually("tbrd is browsing again", timeout: .seconds(10), wakingOn: #require(rig.daemon).wakeups) {
                    rig.daemon?.stderr.contains("avahi-daemon is back") == true
                }
                // The agent's names change: tbrd sees the new TXT record through the new daemon.
                #expect(try await rig.control("wpan0", "SetVendorInfo", "ss", ["Renamed Co", "Hub 10"]).status == 0)
                try await eventually("tbrd follows the new names", timeout: .seconds(15)) {
                    try await rig.servedNames() == ("Renamed Co", "Hub 10")
                }
                #expect(try await Self.names(rig) == ("Renamed Co", "Hub 10"))
                // The publisher's avahi-daemon restarts too: otbr-sim publishes again, discovery finds it.
                await rig.publisher.stopAvahi()
                try await rig.publisher.startAvahi()
                try await eventually("discover finds the agent again", timeout: .seconds(20)) {
                    let result = try await rig.tbrctl(["--json", "discover", "--timeout", "1.5"])
                    return result.stdout.contains("\"Renamed Co\"") && result.stdout.contains("\"managed\" : true")
                }
                // And keys started on the agent are still reported.
                let watcher = try await rig.watch()
                // Longer than the second Avahi takes to announce it: a key over before it is announced opens nothing.
                #expect(try await rig.agentCall("wpan0", "ActivateEphemeralKeyMode", "u", ["3000"]).status == 0)
                try await eventually("a key after both restarts is reported and ends", timeout: .seconds(10), wakingOn: watcher.wakeups) {
                    LANRig.events(watcher).contains { $0["reason"] as? String == "expired" }
                }
            }
        }
    }
}
