import DBus
import Foundation
import TBRTestKit
import Testing

/// `tbrctl network scan` and `structure scan` (issue 32): otbr-agent's EnergyScan through tbrd and in
/// direct mode, on channels whose energy the test scripts through otbr-sim's control interface.
@Suite struct EnergyScanCommandTests {
    static func channels(_ object: [String: Any]) -> [Int: Int] {
        var out: [Int: Int] = [:]
        for row in object["channels"] as? [[String: Any]] ?? [] {
            if let c = row["channel"] as? Int, let e = row["maxRssi"] as? Int { out[c] = e }
        }
        return out
    }

    @Test func aScanShowsTheScriptedEnergyPerChannelAndAStructureCombinesItsRouters() async throws {
        try await withRig(["wpan0", "wpan1"], withTbrd: true) { rig throws in
            try await rig.control("wpan0", "SetChannelEnergy", [.byte(15), .int16(-40)])
            try await rig.control("wpan1", "SetChannelEnergy", [.byte(15), .int16(-70)])
            try await rig.control("wpan1", "SetChannelEnergy", [.byte(20), .int16(-55)])
            // wpan1's radio has no channel 26: the structure shows only what both read.
            try await rig.control("wpan1", "SetSupportedChannelMask", [.uint32(0x03FF_F800)])

            let (one, json) = try await rig.json(["--json", "network", "scan", "-d", "wpan0", "--duration", "20"])
            #expect(one.status == 0, "\(one.stderr)")
            #expect(json["router"] as? String == "wpan0" && json["status"] as? String == "scanned" && json["durationMs"] as? Int == 20)
            let readings = Self.channels(json)
            #expect(readings.keys.sorted() == Array(11...26))
            #expect(readings[15] == -40 && readings[20] == -100)
            let text = try await rig.run(["network", "scan", "-d", "wpan0"])
            #expect(text.status == 0, "\(text.stderr)")
            let line15 = text.stdout.split(separator: "\n").first { $0.hasPrefix("15 ") }
            #expect(line15?.contains("-40 dBm") == true && line15?.hasSuffix(String(repeating: "#", count: 30)) == true, "\(text.stdout)")

            #expect(try await rig.run(["structure", "create", "Home"]).status == 0)
            #expect(try await rig.run(["structure", "add", "Home", "wpan0"]).status == 0)
            #expect(try await rig.run(["structure", "add", "Home", "wpan1"]).status == 0)
            let (both, combined) = try await rig.json(["--json", "structure", "scan", "Home", "--duration", "10"])
            #expect(both.status == 0, "\(both.stderr)")
            let rows = combined["channels"] as? [[String: Any]] ?? []
            #expect(rows.map { $0["channel"] as? Int } == Array(11...25).map { $0 }, "channel 26 only wpan0 read")
            let ch15 = rows.first { $0["channel"] as? Int == 15 }
            #expect(ch15?["maxRssi"] as? Int == -40 && ch15?["loudestAt"] as? String == "wpan0")
            #expect((ch15?["routers"] as? [String: Int]) == ["wpan0": -40, "wpan1": -70])
            let ch20 = rows.first { $0["channel"] as? Int == 20 }
            #expect(ch20?["maxRssi"] as? Int == -55 && ch20?["loudestAt"] as? String == "wpan1")
            let statuses = (combined["routers"] as? [[String: Any]] ?? []).map { "\($0["router"] ?? "")=\($0["status"] ?? "")" }
            #expect(statuses == ["wpan0=scanned", "wpan1=scanned"])

            // A router that is down is named, not made up; the other is still scanned.
            try await rig.control("wpan1", "Crash", [.uint32(60_000)])
            try await eventually("tbrd sees wpan1 offline", timeout: .seconds(10)) {
                let (_, rows) = try await rig.jsonArray(["--json", "list"])
                return rows.first { $0["id"] as? String == "wpan1" }?["online"] as? Bool == false
            }
            let (partial, after) = try await rig.json(["--json", "structure", "scan", "Home", "--duration", "10"])
            #expect(partial.status == 0, "\(partial.stderr)")
            let down = (after["routers"] as? [[String: Any]])?.first { $0["router"] as? String == "wpan1" }
            #expect(down?["status"] as? String == "offline", "\(after)")
            #expect(Self.channels(after)[20] == -100, "only wpan0's readings remain")

            // Durations otbr-agent refuses are refused before anything is sent.
            for bad in ["0", "65535", "x"] {
                let r = try await rig.run(["network", "scan", "-d", "wpan0", "--duration", bad])
                #expect(r.status == 64 && r.stderr.contains("1 to 65534"), "\(bad): \(r.status) \(r.stderr)")
            }
        }
    }

    @Test func directModeScansWithoutTbrd() async throws {
        try await withRig(["wpan0"]) { rig throws in
            try await rig.control("wpan0", "SetChannelEnergy", [.byte(25), .int16(-33)])
            let (result, json) = try await rig.json(["--json", "network", "scan", "--duration", "5"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.channels(json)[25] == -33 && json["router"] as? String == "wpan0")
        }
    }
}
