import DBus
import MeshCoP
@testable import OTBRSimulator
import OpenThreadBR
import TBRFoundation
import TBRTestKit
import Testing

/// The network state machine: roles, Join and SetThreadEnabled, AttachAllNodesTo, GetProperties.
@Suite struct NetworkStateTests {
    @Test func attachSignalsDetachedThenTheDatasetThenLeader() async throws {
        try await withSimulator { env throws in
            try await env.client.setActiveDatasetTLVs(sampleDataset)
            let changes = try await env.client.propertyChanges()
            try await env.client.attach()
            let seen = await collect(changes, count: 3)
            #expect(seen.map(\.name) == ["DeviceRole", "ActiveDatasetTlvs", "DeviceRole"])
            #expect(seen.first?.value == .string("detached"))
            #expect(seen.last?.value == .string("leader"))
            #expect(seen.dropFirst().first?.value == .bytes(sampleDataset))
            let (name, pan, xpan, channel) = try await env.client.read(.networkName, .panID, .extendedPANID, .channel)
            #expect(name == "OpenThreadDemo")
            #expect(pan == PANID(0x1234))
            #expect(xpan == ExtendedPANID(0x1111_1111_2222_2222))
            #expect(channel == 15)
        }
    }

    @Test func roleStreamYieldsTheCurrentRoleFirst() async throws {
        try await withSimulator { env throws in
            let roles = try await env.client.roleChanges()
            try await env.client.setActiveDatasetTLVs(sampleDataset)
            try await env.client.attach()
            #expect(await collect(roles, count: 3) == [.disabled, .detached, .leader])
        }
    }

    @Test func attachWithoutADatasetNeverRepliesAndBlocksLaterAttaches() async throws {
        try await withSimulator { env throws in
            var quick = env.client
            quick.networkTimeout = .milliseconds(300)
            #expect(await agentCause { try await quick.attach() } == .timedOut)
            #expect(try await env.client.deviceRole() == .detached)
            #expect(await otError { try await env.client.attach() } == .invalidState)
            #expect(await otError { _ = try await env.client.attachAllNodes(to: sampleDataset) } == .busy)
        }
    }

    @Test func attachWithArgumentsFormsANewNetwork() async throws {
        try await withSimulator { env throws in
            try await env.client.attach(networkName: NetworkName("Formed")!, channelMask: 1 << 25)
            let dataset = try #require(try await env.client.activeDataset())
            #expect(dataset.networkName?.rawValue == "Formed")
            #expect(dataset.channel == Channel(25))
            #expect(dataset.isValid(as: .active))
            #expect(try await env.client.deviceRole() == .leader)
            #expect(await otError { try await env.client.attach(networkName: NetworkName("X")!, channelMask: 0) } == .invalidArgs)
            #expect(await otError { try await env.client.attach(networkName: NetworkName("X")!, channelMask: 1 << 5) } == .invalidArgs)
        }
    }

    @Test func joinNeedsThreadEnabled() async throws {
        try await withSimulator { env throws in
            #expect(await otError { try await env.client.join(sampleDataset) } == .invalidState)
            try await env.client.setThreadEnabled(true)
            try await env.client.join(sampleDataset)
            #expect(try await env.client.deviceRole() == .leader)
            #expect(try await env.client.activeDatasetTLVs() == sampleDataset)
        }
    }

    @Test func joinOfTheSameNetworkSucceedsAtOnceAndAnotherNetworkRejoins() async throws {
        try await withSimulator { env throws in
            try await env.client.setThreadEnabled(true)
            try await env.client.join(sampleDataset)
            let roles = try await env.client.roleChanges()
            // Same channel, key and extended PAN ID: OK without any role change (the role sequence below
            // starts with the current leader and then shows only the other network's rejoin).
            try await env.client.join(sampleDataset)
            // Another network: graceful detach, erase, join.
            try await env.client.join(otherDataset())
            #expect(await collect(roles, count: 4) == [.leader, .disabled, .detached, .leader])
            #expect(try await env.client.read(.channel) == 20)
        }
    }

    @Test func autoResumeAfterARestartDoesNotEnableThread() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            let ready = try await env.client.readySignals()
            try await env.control("Crash", [.uint32(50)])
            _ = await collect(ready, count: 1)
            try await eventually("the agent is leader again", wakingOn: env.client.remote.wakeups) { try await env.client.deviceRole() == .leader }
            // The network came back on its own, but the host's Thread-enabled state starts disabled.
            #expect(await otError { try await env.client.join(sampleDataset) } == .invalidState)
            #expect(try await env.control.property("ThreadEnabled", as: Bool.self) == false)
        }
    }

    @Test func detachKeepsTheDatasetAndSetThreadEnabledFalseWaitsForTheGracefulDetach() async throws {
        try await withSimulator(configure: { $0.detachDelay = .milliseconds(150) }) { env throws in
            try await env.formNetwork()
            try await env.client.detach()
            #expect(try await env.client.deviceRole() == .disabled)
            #expect(try await env.client.activeDatasetTLVs() == sampleDataset)
            try await env.client.setThreadEnabled(true)
            try await eventually("leader", wakingOn: env.client.remote.wakeups) { try await env.client.deviceRole() == .leader }
            let start = ContinuousClock.now
            async let disabling: Void = env.client.setThreadEnabled(false)
            try await eventually("the graceful detach runs") { await env.agent.runtime.detaching }
            #expect(await otError { try await env.client.setThreadEnabled(true) } == .busy)
            try await disabling
            #expect(ContinuousClock.now - start >= .milliseconds(150))
            #expect(try await env.client.deviceRole() == .disabled)
        }
    }

    @Test func attachAllNodesToDelays() async throws {
        try await withSimulator { env throws in
            // No dataset: stored as it is and attached, delay 0.
            #expect(try await env.client.attachAllNodes(to: sampleDataset) == .zero)
            #expect(try await env.client.deviceRole() == .leader)
            // The same dataset: 0 at once.
            #expect(try await env.client.attachAllNodes(to: sampleDataset) == .zero)
            // Connectivity unchanged (only the name and timestamp differ): MGMT_ACTIVE_SET, delay 0.
            var renamed = try OperationalDataset(bytes: sampleDataset)
            renamed.networkName = NetworkName("Renamed")
            renamed.activeTimestamp = Timestamp(seconds: 5)
            #expect(try await env.client.attachAllNodes(to: renamed.encoded()) == .zero)
            #expect(try await env.client.read(.networkName) == "Renamed")
            // Connectivity changes: a pending dataset with a 300 s delay.
            let other = otherDataset(activeTimestampSeconds: 6)
            #expect(try await env.client.attachAllNodes(to: other) == .milliseconds(300_000))
            let pending = try OperationalDataset(bytes: try #require(try await env.client.pendingDatasetTLVs()))
            // The Delay Timer reads the time left of 300 s (the default --pending-delay is the real 300 s).
            let left = try #require(pending.delayTimer?.milliseconds)
            #expect(left <= 300_000 && left > 290_000)
            #expect(pending.pendingTimestamp != nil)
            #expect(try await env.client.read(.channel) == 15)
            // The simulator can skip the 300 s wait.
            let datasets = try await env.client.activeDatasetChanges()
            #expect(try await env.control("ApplyPendingDataset") == [.bool(true)])
            let seen = await collect(datasets, count: 2)
            #expect(seen.last == .some(other))
            #expect(try await env.client.read(.channel) == 20)
            #expect(try await env.client.pendingDatasetTLVs() == nil)
        }
    }

    @Test func attachAllNodesToRefusesBadDatasets() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            var partial = try OperationalDataset(bytes: sampleDataset)
            partial.remove(.networkKey)
            #expect(await otError { _ = try await env.client.attachAllNodes(to: partial.encoded()) } == .invalidArgs)
            #expect(await otError { _ = try await env.client.attachAllNodes(to: [1, 2, 3]) } == .invalidArgs)
            var withPending = try OperationalDataset(bytes: otherDataset())
            withPending.delayTimer = DelayTimer(milliseconds: 1000)
            #expect(await otError { _ = try await env.client.attachAllNodes(to: withPending.encoded()) } == .invalidArgs)
            #expect(try await env.client.pendingDatasetTLVs() == nil)
        }
    }

    /// Observed on a real agent: the leader of A takes B with A's Active Timestamp, as a pending dataset
    /// stamped now with a Delay Timer counting down from 300000, and is leader of B when the delay ends.
    @Test func attachAllNodesToWithTheSameActiveTimestampMigratesWhenTheDelayEnds() async throws {
        // Shortened; long enough that the pending dataset is still there for the reads below on a loaded machine.
        try await withSimulator(configure: { $0.pendingDelay = .seconds(4) }) { env throws in
            try await env.formNetwork()
            let b = otherDataset(activeTimestampSeconds: 1)
            #expect(try await env.client.activeDataset()?.activeTimestamp == Timestamp(seconds: 1))
            let datasets = try await env.client.activeDatasetChanges()
            let wallBefore = SystemClock().wallTime()
            #expect(try await env.client.attachAllNodes(to: b) == .milliseconds(300_000))
            let wallAfter = SystemClock().wallTime()
            let first = try OperationalDataset(bytes: try #require(try await env.client.pendingDatasetTLVs()))
            #expect(first.activeTimestamp == Timestamp(seconds: 1))
            let stamp = try #require(first.pendingTimestamp)
            #expect(stamp.seconds >= UInt64(wallBefore) && stamp.seconds <= UInt64(wallAfter))
            let firstLeft = try #require(first.delayTimer?.milliseconds)
            #expect(firstLeft <= 300_000 && firstLeft > 0)
            // Everything else is B as given, in B's order, then the two TLVs of the migration.
            var expected = try OperationalDataset(bytes: b)
            expected.pendingTimestamp = stamp
            expected.delayTimer = first.delayTimer
            #expect(first == expected)
            // The Delay Timer counts down.
            try await eventually("the Delay Timer counts down") {
                let later = try OperationalDataset(bytes: try #require(try await env.client.pendingDatasetTLVs()))
                return try #require(later.delayTimer?.milliseconds) < firstLeft && later.pendingTimestamp == stamp
            }
            // Until the delay ends the node stays on A.
            #expect(try await env.client.read(.channel) == 15)
            // Then it is leader of B, without a pending dataset.
            let seen = await collect(datasets, count: 2)
            #expect(seen.last == .some(b))
            #expect(try await env.client.deviceRole() == .leader)
            let (channel, pan, name) = try await env.client.read(.channel, .panID, .networkName)
            #expect(channel == 20 && pan == PANID(0x4321) && name == "OpenThreadDemo")
            #expect(try await env.client.pendingDatasetTLVs() == nil)
        }
    }

    @Test func attachAllNodesToFromADisabledNodeWithADatasetRepliesAfterAttaching() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            try await env.client.detach()
            #expect(try await env.client.attachAllNodes(to: otherDataset()) == .milliseconds(300_000))
            #expect(try await env.client.deviceRole() == .leader)
            #expect(try await env.client.pendingDatasetTLVs() != nil)
        }
    }

    @Test func getPropertiesIsAllOrNothing() async throws {
        try await withSimulator { env throws in
            let (role, id) = try await env.client.read(.deviceRole, .borderAgentID)
            #expect(role == .disabled)
            #expect(id.bytes.count == 16)
            #expect(await otError { _ = try await env.client.propertyValues(["DeviceRole", "NoSuchProperty"]) } == .notFound)
            #expect(await otError { _ = try await env.client.read(.deviceRole, .activeDatasetTLVs) } == .notFound)
            let send = env.dbusSend
            #expect(try await send.call("GetProperties", ["array:string:DeviceRole,Nope"]).errorName == "io.openthread.Error.NotFound")
            #expect(try await send.call("GetProperties", ["string:DeviceRole"]).errorName == "io.openthread.Error.Parse")
            let ok = try await send.call("GetProperties", ["array:string:DeviceRole,PanId"])
            #expect(ok.status == 0 && ok.stdout.contains("\"disabled\"") && ok.stdout.contains("uint16 65535"))
        }
    }

    @Test func factoryResetErasesTheNetworkAndTheBorderAgentID() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            let before = try await env.client.read(.borderAgentID)
            try await env.client.factoryReset()
            #expect(try await env.client.deviceRole() == .disabled)
            #expect(try await env.client.activeDatasetTLVs() == nil)
            #expect(try await env.client.read(.borderAgentID) != before)
        }
    }

    @Test func resetResumesTheNetworkAndKeepsTheID() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            let before = try await env.client.read(.borderAgentID)
            let roles = try await env.client.roleChanges()
            try await env.client.reset()
            #expect(await collect(roles, count: 4) == [.leader, .disabled, .detached, .leader])
            #expect(try await env.client.read(.borderAgentID) == before)
        }
    }

    @Test func nat64FollowsSetNat64EnabledAndCapabilities() async throws {
        // NotRunning lasts a fifth of the delay: 500 ms, so the first read lands in it on a loaded machine too.
        try await withSimulator(configure: { $0.nat64Delay = .milliseconds(2500) }) { env throws in
            try await env.formNetwork()
            try await env.client.setNat64Enabled(true)
            #expect(try await env.client.read(.nat64State) == Nat64State(prefixManager: .notRunning, translator: .notRunning))
            try await eventually("NAT64 idle") { try await env.client.read(.nat64State).prefixManager == .idle }
            try await eventually("NAT64 active") {
                try await env.client.read(.nat64State) == Nat64State(prefixManager: .active, translator: .active)
            }
            try await env.client.setNat64Enabled(false)
            #expect(try await env.client.read(.nat64State) == .disabled)
            try await env.control("SetCapabilities", [.bool(false), .bool(false)])
            #expect(await otError { try await env.client.setNat64Enabled(true) } == .notImplemented)
            #expect(await otError { _ = try await env.client.read(.nat64State) } == .notImplemented)
            #expect(try await env.client.read(.capabilities) == Capabilities(nat64: false, dhcp6PD: false))
        }
    }

    @Test func dhcp6PdStateFollowsTheFeatureFlagWhenBuiltIn() async throws {
        try await withSimulator(configure: { $0.capabilities = SimulatedCapabilities(nat64: true, dhcp6PD: true) }) { env throws in
            try await env.formNetwork()
            try await env.client.setEphemeralKeyEnabled(true)
            let states = try await env.client.dhcp6PDStateChanges()
            let written = try await env.client.updateFeatureFlags { $0.enableDhcp6PD = true }
            #expect(written.enableEphemeralKey == true)  // filled in: the write does not turn ePSKc off
            #expect(written.enableNat64 == false)
            try await env.client.detach()
            try await env.client.updateFeatureFlags { $0.enableDhcp6PD = false }
            #expect(await collect(states, count: 3) == [.running, .stopped, .disabled])
            #expect(try await env.client.read(.ephemeralKeyEnabled))
        }
    }

    @Test func writingFeatureFlagsWithoutTheEpskcFlagTurnsEpskcOff() async throws {
        try await withSimulator { env throws in
            var flags = FeatureFlagList()
            flags.enableDhcp6PD = true
            try await env.client.setFeatureFlags(flags)
            #expect(try await env.client.read(.ephemeralKeyEnabled) == false)
            #expect(try await env.client.read(.featureFlags) == flags)
        }
    }

    @Test func vendorTXTEntriesAndTheBorderAgentID() async throws {
        try await withSimulator { env throws in
            let id: [UInt8] = Array(0..<16)
            try await env.client.updateVendorMeshCoPTXTEntries([
                VendorTXTEntry(key: "vo", value: [1, 2]), VendorTXTEntry(key: "id", value: id),
            ])
            #expect(try await env.client.read(.borderAgentID).bytes == id)
            #expect(await otError { try await env.client.updateVendorMeshCoPTXTEntries([.init(key: "nn", value: [1])]) } == .invalidArgs)
            #expect(await otError { try await env.client.updateVendorMeshCoPTXTEntries([.init(key: "id", value: [1])]) } == .invalidArgs)
            #expect(await otError { try await env.client.updateVendorMeshCoPTXTEntries([.init(key: "", value: [1])]) } == .invalidArgs)
        }
    }

    @Test func scansAndUnimplementedMethods() async throws {
        try await withSimulator { env throws in
            #expect(try await env.client.scan().isEmpty)
            let energy = try await env.client.energyScan(duration: .milliseconds(100))
            #expect(energy.map(\.channel) == Array(11...26))
            #expect(await otError { _ = try await env.client.energyScan(duration: .milliseconds(65535)) } == .invalidArgs)
            #expect(try await env.dbusSend.call("PermitUnsecureJoin", ["uint16:1", "uint32:1"]).errorName == "io.openthread.Error.NotImplemented")
            let joiner = try await env.dbusSend.call(
                "JoinerStart", ["string:ABCDEF", "string:", "string:mock", "string:mock", "string:mock", "string:mock"])
            #expect(joiner.errorName == "io.openthread.Error.NotFound")
        }
    }
}
