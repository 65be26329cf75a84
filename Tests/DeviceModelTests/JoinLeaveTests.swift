import BorderRouterService
import DBus
import DeviceModel
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import Testing

/// `joinNetwork` and `leaveNetwork` against otbr-sim.
@Suite struct JoinLeaveTests {
    let sample = Mgmt.NetworkInfo(dataset: try! OperationalDataset(bytes: sampleDataset))!
    let other = Mgmt.NetworkInfo(dataset: try! OperationalDataset(bytes: otherDataset()))!

    @Test func aBadDatasetChangesNothing() async throws {
        try await withService(configure: { _, c in c.formed() }) { env throws in
            let (_, mgmt) = try await env.management()
            let before = try await env.client().activeDatasetTLVs()
            var partial = try OperationalDataset(bytes: otherDataset())
            partial.remove(.networkKey)
            var pending = try OperationalDataset(bytes: otherDataset())
            pending.set(.delayTimer(DelayTimer(milliseconds: 1000)))
            let bad: [[UInt8]] = [[0x01, 0x05, 0x00], partial.encoded(), pending.encoded(), Array(repeating: 0, count: 300)]
            for tlvs in bad {
                for scope in [Mgmt.JoinScope.wholeNetwork, .thisRouterOnly] {
                    let r = await mgmt.joinNetwork(.init(operationalDatasetTlvs: tlvs, scope: scope))
                    #expect(r.status == .invalidArgument)
                    #expect(r.outcome == nil && r.message?.contains("refused") == true)
                }
            }
            #expect(try await env.client().activeDatasetTLVs() == before)
            #expect(try await env.client().pendingDatasetTLVs() == nil)
            #expect(try await env.client().deviceRole() == .leader)
            #expect(try await mgmt.networkInfo.read() == sample)
        }
    }

    @Test func joinFromDisabled() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            #expect(try await env.client().deviceRole() == .disabled)
            #expect(try await mgmt.networkInfo.read() == nil)
            let info = Recorder(mgmt.networkInfo.stream())
            _ = try await info.wait(for: 1)
            let r = await mgmt.joinNetwork(.init(operationalDatasetTlvs: sampleDataset))
            #expect(r.status == .success && r.outcome == .joined && r.migrationDelay == nil)
            #expect(try await env.client().deviceRole() == .leader)
            #expect(try await mgmt.networkInfo.read() == sample)
            #expect(try await info.wait(for: 2) == [nil, sample])
        }
    }

    @Test func joiningTheSameNetworkChangesNothing() async throws {
        try await withService(configure: { _, c in c.formed() }) { env throws in
            let (_, mgmt) = try await env.management()
            let signals = Recorder(try await env.client().activeDatasetChanges().compactMapNever())
            _ = try await signals.wait(for: 1)  // the current dataset
            let r = await mgmt.joinNetwork(.init(operationalDatasetTlvs: sampleDataset))
            #expect(r.status == .success && r.outcome == .alreadyJoined)
            #expect(try await env.client().activeDatasetTLVs() == sampleDataset)
            #expect(try await env.client().deviceRole() == .leader)
            // A change that is signalled (another active dataset written): it is the next one the stream
            // brings, so the join before it signalled nothing.
            try await env.client().setActiveDatasetTLVs(otherDataset())
            #expect(try await signals.wait(for: 2) == [sampleDataset, otherDataset()])
        }
    }

    @Test func anotherNetworkMovesTheWholeMeshAfterTheDelay() async throws {
        try await withService(configure: { _, c in c.formed() }) { env throws in
            let (_, mgmt) = try await env.management()
            let info = Recorder(mgmt.networkInfo.stream())
            _ = try await info.wait(for: 1)
            let r = await mgmt.joinNetwork(.init(operationalDatasetTlvs: otherDataset()))
            #expect(r.status == .success && r.outcome == .migrationScheduled)
            #expect(r.migrationDelay == .seconds(300))
            // Until the delay expires the mesh stays where it is, with the new dataset pending.
            #expect(try await mgmt.networkInfo.read() == sample)
            let pending = try #require(try await env.client().pendingDatasetTLVs())
            let left = try #require(try OperationalDataset(bytes: pending).delayTimer?.milliseconds)
            #expect(left <= 300_000 && left > 290_000)
            #expect(try await env.control("ApplyPendingDataset") == [.bool(true)])
            #expect(try await info.wait(for: 2) == [sample, other])
            #expect(try await env.client().deviceRole() == .leader)
        }
    }

    /// As a real otbr-agent does: a dataset with the running network's Active Timestamp is not refused;
    /// the whole mesh moves to it when the delay ends.
    @Test func aDatasetWithTheSameActiveTimestampMovesTheWholeMesh() async throws {
        let sameStamp = try OperationalDataset(bytes: otherDataset(activeTimestampSeconds: 1))
        try await withService(configure: { _, c in
            c.formed()
            // Shortened, but long enough that the pending dataset is still there to be read below on a
            // loaded machine (800 ms was not: the read came after the move, ~1 run in 40 under stress-ng).
            c.pendingDelay = .seconds(4)
        }) { env throws in
            let (_, mgmt) = try await env.management()
            let info = Recorder(mgmt.networkInfo.stream())
            _ = try await info.wait(for: 1)
            let r = await mgmt.joinNetwork(.init(operationalDatasetTlvs: sameStamp.encoded()))
            #expect(r.status == .success && r.outcome == .migrationScheduled && r.message == nil)
            #expect(r.migrationDelay == .seconds(300))
            let pending = try OperationalDataset(bytes: try #require(try await env.client().pendingDatasetTLVs()))
            #expect(pending.activeTimestamp == Timestamp(seconds: 1))
            #expect(pending.channel == sameStamp.channel && pending.pendingTimestamp != nil)
            // No ApplyPendingDataset: the (shortened) delay ends by itself.
            #expect(try await info.wait(for: 2) == [sample, Mgmt.NetworkInfo(dataset: sameStamp)!])
            #expect(try await env.client().deviceRole() == .leader)
            #expect(try await env.client().pendingDatasetTLVs() == nil)
            #expect(try await env.client().activeDatasetTLVs() == sameStamp.encoded())
        }
    }

    @Test func thisRouterOnlyMovesAlone() async throws {
        try await withService(configure: { _, c in c.formed() }) { env throws in
            let (_, mgmt) = try await env.management()
            let r = await mgmt.joinNetwork(.init(operationalDatasetTlvs: otherDataset(), scope: .thisRouterOnly))
            #expect(r.status == .success && r.outcome == .joined && r.migrationDelay == nil)
            #expect(try await mgmt.networkInfo.read() == other)
            #expect(try await env.client().activeDatasetTLVs() == otherDataset())
            #expect(try await env.client().pendingDatasetTLVs() == nil)
        }
    }

    @Test func leaveCompletesAfterTheAgentRestarts() async throws {
        try await withService(configure: { _, c in c.formed() }) { env throws in
            let (_, mgmt) = try await env.management()
            let before = try #require(await env.service.routerSummaries().first)
            let idBefore = try #require(before.borderAgentID)
            let instanceBefore = try #require(before.agentInstance)
            let registry = Recorder(env.service.registryEvents())
            let ends = Recorder(mgmt.epskcModeDeactivatedEvent.stream())
            #expect(await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 60)).status == .success)
            try await mgmt.leaveNetwork()
            // Back already: a new agent instance, a new Border Agent ID, no network, the same router id.
            let after = try #require(await env.service.routerSummaries().first)
            #expect(after.id == "wpan0" && after.isOnline)
            #expect(after.agentInstance != instanceBefore && after.agentInstance != nil)
            #expect(after.borderAgentID != nil && after.borderAgentID != idBefore)
            #expect(after.role == .disabled)
            #expect(try await mgmt.networkInfo.read() == nil)
            #expect(await env.service.resolveRouter(after.borderAgentID!.description) == "wpan0")
            // The key died with the old instance.
            let end = try #require(try await ends.wait(for: 1).first)
            #expect(end.detectedBy == .routerRestarted && end.reason == .unspecified)
            #expect(registry.elements.contains(.online("wpan0")))
            // And the router works on: join again, activate again.
            #expect(await mgmt.joinNetwork(.init(operationalDatasetTlvs: sampleDataset)).outcome == .joined)
            #expect(await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 5)).status == .success)
            try await mgmt.deactivateEpskcMode()
            #expect(try await env.home.device(id: "wpan0").isOnline)
        }
    }
}

extension AgentEventStream {
    /// The stream with its errors ended silently, so a ``Recorder`` can follow it.
    func compactMapNever() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        let task = Task {
            do { for try await e in self { continuation.yield(e) } } catch {}
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
