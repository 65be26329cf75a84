import DBus
import Foundation
import TBRDBusAPI
import TBRTestKit
import Testing

/// Matter commissioning through tbrd's D-Bus API with matter-sim (a simulated python-matter-server,
/// with a Bluetooth adapter): the contract, the refusals, the stages as signals, the outcomes, the
/// nodes, cancel, and no passcode in the log.
@Suite(.serialized) struct CommissioningTests {
    static let simulated = [
        "--bluetooth", "--step-ms", "40",
        "--device", "discriminator=100 passcode=20202021 vendor-id=0xFFF1 product-id=0x8001",
        "--device", "discriminator=200 passcode=20202021 vendor-id=0xFFF2 product-id=0x8002",
        "--device", "discriminator=300 passcode=20202021 delay-ms=400",
        "--device", "discriminator=400 passcode=20202021 absent",
    ]

    /// Detail `key` of `signal` as a `T`, or nil.
    static func detail<T: DBusRepresentable>(_ signal: CommissioningProgressSignal?, _ key: String, _: T.Type = T.self) -> T? {
        guard let value = signal?.detail[key] else { return nil }
        do { return try value.decode(as: T.self) } catch { return nil }
    }

    /// Whether a `PropertiesChanged` of `MatterNodes` comes on `stream`.
    static func signalsMatterNodes(_ stream: SignalStream) async throws -> Bool {
        for try await change in stream {
            let changed = try change.arguments[1].decode(as: [String: DBusValue].self)
            if changed["MatterNodes"] != nil { return true }
        }
        return false
    }

    @Test func withoutABackendTheMethodsSayHowToConfigureOne() async throws {
        try await withDaemon { env throws in
            let rig = try await CommissioningRig.start(env, configuration: "")
            let refused = await CommissioningRig.failure { _ = try await rig.prepare() }
            #expect(refused?.name == "io.tbrd.Error.NotSupported")
            #expect(refused?.message.contains("set matter-backend = matter-server") == true)
            // MatterNodes reads fine: there are none.
            #expect(try await rig.structure.property("MatterNodes", as: [MatterNodeRow].self).isEmpty)
            // The contract is what introspection shows.
            let xml = try await rig.structure.introspect()
            for fragment in [
                #"<method name="PrepareMatterCommissioning">"#, #"<arg type="x" name="expiresAt" direction="out"/>"#,
                #"<method name="Commission">"#, #"<arg type="a{sv}" name="options" direction="in"/>"#,
                #"<arg type="a(ssts)" name="outcomes" direction="out"/>"#, #"<method name="CancelMatterCommissioning">"#,
                #"<method name="ShareMatterNode">"#, #"<signal name="CommissioningProgress">"#,
                #"<arg type="a{sv}" name="detail"/>"#, #"<property name="MatterNodes" type="a(tqqxss)" access="read"/>"#,
                #"<property name="Rooms" type="as" access="read"/>"#, #"<method name="AddRoom">"#, #"<method name="RemoveRoom">"#,
                #"<method name="RenameMatterNode">"#, #"<arg type="s" name="labelProblem" direction="out"/>"#,
                #"<method name="MoveMatterNode">"#, #"<method name="RemoveMatterNode">"#, #"<arg type="b" name="force" direction="in"/>"#,
                #"<method name="AdoptMatterNode">"#,
            ] {
                #expect(xml.contains(fragment), "\(fragment)")
            }
        }
    }

    @Test func aBatchStreamsEveryStageAndRecordsItsNodes() async throws {
        try await withDaemon { env throws in
            let rig = try await CommissioningRig.start(env, matterSim: Self.simulated)
            let nodesChanged = try await rig.structure.propertiesChanged()
            let session = try await rig.prepare()
            // One session per structure.
            let busy = await CommissioningRig.failure { _ = try await rig.prepare() }
            #expect(busy?.name == "io.tbrd.Error.Busy")
            // Refused before anything is queued: a bad code, an unknown option, an unknown network.
            let bad = await CommissioningRig.failure { _ = try await rig.commission(session, "MT:NOPE") }
            #expect(bad?.name == "io.tbrd.Error.InvalidArgument" && bad?.message.hasPrefix("the onboarding payload is not valid") == true)
            let option = await CommissioningRig.failure { _ = try await rig.commission(session, CommissioningRig.code(discriminator: 100), ["color": .string("red")]) }
            #expect(option?.message == "unknown Commission option \"color\" (known: network, onNetwork, name, room)")
            let network = await CommissioningRig.failure {
                _ = try await rig.commission(session, CommissioningRig.code(discriminator: 100), ["network": .string("deadbeef00000001")])
            }
            #expect(network?.name == "io.tbrd.Error.InvalidArgument")
            #expect(network?.message == "no border router of structure \"Home\" is on Thread network deadbeef00000001 (its networks: 1111111122222222)")
            // Unknown sessions.
            let unknown = await CommissioningRig.failure { _ = try await rig.complete("0000000000000000") }
            #expect(unknown?.name == "io.tbrd.Error.NotFound")

            let first = try await rig.commission(session, CommissioningRig.code(discriminator: 100))
            let wrong = try await rig.commission(session, CommissioningRig.code(discriminator: 200, passcode: 20_202_022))
            let absent = try await rig.commission(session, CommissioningRig.code(discriminator: 400))
            #expect([first, wrong, absent] == ["1", "2", "3"])
            let outcomes = try await rig.complete(session)
            #expect(outcomes.map(\.payloadId) == ["1", "2", "3"])
            #expect(outcomes.map(\.outcome) == ["complete", "failed", "failed"])
            #expect(outcomes[0].nodeId > 0 && outcomes[0].error.isEmpty && outcomes[1].nodeId == 0)
            // The server says no more than that for a wrong passcode and for a device nobody finds.
            #expect(outcomes[1].error.hasSuffix("commissioning failed (error 1): Commission with code failed for node 2."), "\(outcomes[1].error)")
            #expect(outcomes[2].error.hasSuffix("commissioning failed (error 1): Commission with code failed for node 3."), "\(outcomes[2].error)")

            // The stages, in order, each with its time; the details as the contract says.
            #expect(rig.progress.stages(session, "1") == [
                "queued", "validated", "networkSelected", "credentialsHandedOver", "commissioning", "nodeAdded", "interviewed", "complete",
            ])
            #expect(rig.progress.stages(session, "2") == ["queued", "validated", "networkSelected", "credentialsHandedOver", "commissioning", "failed"])
            let signals = rig.progress.signals(session, "1")
            let times = signals.compactMap { Self.detail($0, "time", Int64.self) }
            #expect(times.count == signals.count && times == times.sorted())
            let complete = try #require(signals.last)
            #expect(Self.detail(complete, "nodeId", UInt64.self) == outcomes[0].nodeId)
            #expect(Self.detail(complete, "vendorId", UInt16.self) == 0xFFF1)
            #expect(Self.detail(complete, "productId", UInt16.self) == 0x8001)
            #expect(Self.detail(complete, "extPanId", String.self) == "1111111122222222")
            let failed = try #require(rig.progress.signals(session, "2").last)
            #expect(Self.detail(failed, "failedStage", String.self) == "commissioning")
            #expect(Self.detail(failed, "error", String.self)?.contains("Commission with code failed") == true)
            // The payload runs after the one before it has ended: one at a time.
            let firstEnd = try #require(times.last)
            let secondStart = try #require(rig.progress.signals(session, "2").first { $0.stage == "validated" })
            #expect((Self.detail(secondStart, "time", Int64.self) ?? 0) >= firstEnd)

            // The node is recorded and signalled.
            let nodes = try await rig.structure.property("MatterNodes", as: [MatterNodeRow].self)
            #expect(nodes.map(\.nodeId) == [outcomes[0].nodeId])
            #expect(nodes.first?.vendorId == 0xFFF1 && nodes.first?.productId == 0x8001)
            #expect(try await Self.signalsMatterNodes(nodesChanged))
            // The session is over: the structure is free again.
            let next = try await rig.prepare()
            _ = try await rig.complete(next)
            env.secrets.append("20202021")
            env.secrets.append("20202022")
        }
    }

    @Test func cancelDropsWhatIsQueuedAndTheOneInFlightFinishes() async throws {
        try await withDaemon { env throws in
            let rig = try await CommissioningRig.start(env, matterSim: Self.simulated)
            let session = try await rig.prepare()
            let slow = try await rig.commission(session, CommissioningRig.code(discriminator: 300))
            _ = try await rig.commission(session, CommissioningRig.code(discriminator: 100))
            _ = try await rig.commission(session, CommissioningRig.code(discriminator: 200))
            try await eventually("the slow device is being commissioned") { rig.progress.stages(session, slow).contains("commissioning") }
            _ = try await rig.structure.call("CancelMatterCommissioning", [.string(session)])
            // The queued ones fail at once, at `queued`; the structure stays busy until the slow one ends.
            for id in ["2", "3"] {
                let last = try await rig.waitForEnd(session, id, timeout: .seconds(5)).last
                #expect(last?.stage == "failed")
                #expect(Self.detail(last, "failedStage", String.self) == "queued")
                #expect(Self.detail(last, "error", String.self) == "the session was cancelled before its turn")
            }
            let busy = await CommissioningRig.failure { _ = try await rig.prepare() }
            #expect(busy?.name == "io.tbrd.Error.Busy")
            let closed = await CommissioningRig.failure { _ = try await rig.commission(session, CommissioningRig.code(discriminator: 100)) }
            #expect(closed?.name == "io.tbrd.Error.Failed")
            let slowEnd = try await rig.waitForEnd(session, slow)
            #expect(slowEnd.last?.stage == "complete", "the one in flight finished")
            try await eventually("the session has ended") {
                let gone = await CommissioningRig.failure { _ = try await rig.complete(session) }
                return gone?.name == "io.tbrd.Error.NotFound"
            }
            #expect(try await rig.structure.property("MatterNodes", as: [MatterNodeRow].self).count == 1, "its node is recorded")
            _ = try await rig.prepare()
        }
    }
}
