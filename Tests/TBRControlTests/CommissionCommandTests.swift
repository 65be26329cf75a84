import Foundation
import MatterOnboarding
import TBRTestKit
import Testing

/// `tbrctl matter commission` and `matter nodes` end to end: tbrctl → tbrd → matter-sim (a simulated
/// python-matter-server with a Bluetooth adapter) and otbr-sim, as a script runs them.
@Suite(.serialized) struct CommissionCommandTests {
    /// Three devices that are there (one slow, so a command is still running while others have ended)
    /// and one that is absent; all with passcode 20202021.
    static let simulated = [
        "--bluetooth", "--step-ms", "30",
        "--device", "discriminator=100 passcode=20202021 vendor-id=0xFFF1 product-id=0x8001",
        "--device", "discriminator=200 passcode=20202021 vendor-id=0xFFF2 product-id=0x8002",
        "--device", "discriminator=300 passcode=20202021 vendor-id=0xFFF3 product-id=0x8003 delay-ms=1500",
    ]

    static func code(discriminator: UInt16, passcode: UInt32 = 20_202_021) throws -> String {
        try SetupPayload(
            vendorID: VendorID(0xFFF1), productID: ProductID(0x8000), discoveryCapabilities: .ble, discriminator: .long(discriminator),
            passcode: try Passcode(passcode)
        ).qrCode()
    }

    static let everyStage = ["queued", "validated", "networkSelected", "credentialsHandedOver", "commissioning", "nodeAdded", "interviewed", "complete"]

    /// Creates "Home" with wpan0 in it.
    static func home(_ rig: Rig) async throws {
        #expect(try await rig.run(["structure", "create", "Home"]).status == 0)
        #expect(try await rig.run(["structure", "add", "Home", "wpan0"]).status == 0)
    }

    @Test func aBatchOfThreeWithAWrongPasscodeStreamsStagesLiveAndRecordsNodesAcrossARestart() async throws {
        try await withMatterRig(Self.simulated) { rig, sim throws in
            try await Self.home(rig)
            let codes = [try Self.code(discriminator: 100), try Self.code(discriminator: 200, passcode: 20_202_022), try Self.code(discriminator: 300)]
            let batch = try rig.spawn(["--json", "matter", "commission", "--structure", "Home"] + codes)

            // Live: the first device's lines are printed while the slow third one is still being commissioned.
            try await eventually("code 1 is complete while the command runs", timeout: .seconds(20), wakingOn: batch.wakeups) {
                jsonLines(batch).contains { $0["payload"] as? Int == 1 && $0["stage"] as? String == "complete" }
            }
            #expect(batch.isRunning, "the stages are printed as they happen, not at the end")
            // One session per structure: a second command exits 75 while this one runs.
            let busy = try await rig.run(["matter", "commission", "--structure", "Home", try Self.code(discriminator: 100)])
            #expect(busy.status == 75, "\(busy.stderr)")
            #expect(busy.stderr.contains("session"), "\(busy.stderr)")

            #expect(try await batch.waitForExit(timeout: .seconds(30)) == 1, "one device failed: exit 1")
            let lines = jsonLines(batch)
            func stages(_ n: Int) -> [String] { lines.filter { $0["payload"] as? Int == n }.compactMap { $0["stage"] as? String } }
            #expect(stages(1) == Self.everyStage)
            #expect(stages(2) == ["queued", "validated", "networkSelected", "credentialsHandedOver", "commissioning", "failed"])
            #expect(stages(3) == Self.everyStage)
            // Every line has the contract's fields; times are ISO 8601 and never go back.
            for line in lines {
                #expect(Set(line.keys).isSuperset(of: ["payload", "stage", "time", "nodeId", "error"]), "\(line)")
                #expect(isISOTime(line["time"]), "\(line)")
            }
            let times = lines.compactMap { $0["time"] as? String }
            #expect(times == times.sorted())
            let failed = try #require(lines.first { $0["stage"] as? String == "failed" })
            #expect(failed["failedStage"] as? String == "commissioning")
            #expect((failed["error"] as? String)?.hasSuffix("commissioning failed (error 1): Commission with code failed for node 2.") == true, "\(failed)")
            let nodeIDs = lines.filter { $0["stage"] as? String == "complete" }.compactMap { ($0["nodeId"] as? NSNumber)?.uint64Value }
            #expect(nodeIDs.count == 2 && Set(nodeIDs).count == 2)
            // No passcode is printed, even inside a code.
            for code in codes { #expect(!batch.stdout.contains(code)) }
            #expect(!batch.stdout.contains("20202021") && !batch.stderr.contains("20202021"))

            // The nodes survive a restart of tbrd.
            let tbrd = try #require(rig.tbrd)
            #expect(await tbrd.stop() == 0)
            try await tbrd.start(expecting: 1, connection: rig.connection, extraConfiguration: sim.tbrdConfiguration)
            let (listed, nodes) = try await rig.jsonArray(["--json", "matter", "nodes", "--structure", "Home"])
            #expect(listed.status == 0)
            #expect(Set(nodes.compactMap { ($0["nodeId"] as? NSNumber)?.uint64Value }) == Set(nodeIDs))
            #expect(nodes.allSatisfy { $0["structure"] as? String == "Home" })
            #expect(Set(nodes.compactMap { $0["vendorId"] as? Int }) == [0xFFF1, 0xFFF3])
        }
    }

    @Test func anInvalidCodeExits65AndQueuesNothing() async throws {
        try await withMatterRig(Self.simulated) { rig, sim throws in
            try await Self.home(rig)
            let result = try await rig.run(["matter", "commission", "--structure", "Home", try Self.code(discriminator: 100), "MT:NOPE"])
            #expect(result.status == 65)
            #expect(result.stderr.contains("code 2 is not a valid onboarding payload"), "\(result.stderr)")
            #expect(result.stderr.contains("nothing was queued"), "\(result.stderr)")
            let (_, nodes) = try await rig.jsonArray(["--json", "matter", "nodes"])
            #expect(nodes.isEmpty)
            // The structure is free: no session was left open.
            let ok = try await rig.run(["matter", "commission", "--structure", "Home", try Self.code(discriminator: 200)])
            #expect(ok.status == 0, "\(ok.stderr)")
            #expect(ok.stdout.contains("1 of 1 device commissioned into \"Home\""), "\(ok.stdout)")
            // A commissioned device has closed its window: commissioning it again fails, naming why.
            let again = try await rig.run(["matter", "commission", "--structure", "Home", try Self.code(discriminator: 200)])
            #expect(again.status == 1, "\(again.stderr)")
            #expect(again.stdout.contains("failed at commissioning") && again.stdout.contains("Commission with code failed"), "\(again.stdout)")
        }
    }

    @Test func withoutABackendOrWithoutTbrdItExits69() async throws {
        try await withRig(withTbrd: true) { rig throws in
            try await Self.home(rig)
            let result = try await rig.run(["matter", "commission", "--structure", "Home", try Self.code(discriminator: 100)])
            #expect(result.status == 69, "\(result.stderr)")
            #expect(result.stderr.contains("matter-backend"), "says how to configure one: \(result.stderr)")
        }
        try await withRig(withTbrd: false) { rig throws in
            let result = try await rig.run(["matter", "commission", "--structure", "Home", try Self.code(discriminator: 100)])
            #expect(result.status == 69, "\(result.stderr)")
        }
    }
}
