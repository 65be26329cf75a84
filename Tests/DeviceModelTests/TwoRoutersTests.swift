import BorderRouterService
import DeviceModel
import OpenThreadBR
import Testing

/// Sessions on two routers at once stay apart: each router's stream carries its own events only.
@Suite struct TwoRoutersTests {
    @Test func sessionsOnTwoRoutersDoNotMix() async throws {
        try await withService(["wpan0", "wpan1"], configure: { _, c in c.formed() }) { env throws in
            let all = Recorder(env.service.epskcEvents())
            let (_, mgmt0) = try await env.management("wpan0")
            let (_, mgmt1) = try await env.management("wpan1")
            let events0 = Recorder(mgmt0.epskcEvents())
            let events1 = Recorder(mgmt1.epskcEvents())
            async let a0 = mgmt0.activateEpskcMode(.init(requestedDurationSeconds: 60))
            async let a1 = mgmt1.activateEpskcMode(.init(requestedDurationSeconds: 60))
            let (r0, r1) = await (a0, a1)
            #expect(r0.status == .success && r1.status == .success)
            #expect(r0.sessionID != r1.sessionID)
            let key0 = try #require(r0.epskc)
            #expect(try await env.control("UseEphemeralKey", [.string(key0.digits)], on: "wpan0") == [.bool(true)])
            let got0 = try await events0.wait(for: 2)
            #expect(got0.last?.deactivated?.reason == .keyUsed)
            // wpan1's key is still active and its stream has only its start.
            #expect(try await env.epskcState("wpan1") == "started")
            #expect(env.journal.events.filter { $0.deviceID == "wpan1" }.map(\.activated?.sessionID) == [r1.sessionID])
            try await mgmt1.deactivateEpskcMode()
            let got1 = try await events1.wait(for: 2)
            #expect(got1.last?.deactivated?.reason == .cancelled)
            #expect(got0.allSatisfy { $0.deviceID == "wpan0" && $0.sessionID == r0.sessionID })
            #expect(got1.allSatisfy { $0.deviceID == "wpan1" && $0.sessionID == r1.sessionID })
            // The service's stream has all four, each once.
            let merged = try await all.wait(for: 4)
            #expect(env.journal.events.count == 4)
            #expect(Set(merged.filter { $0.deviceID == "wpan0" }) == Set(got0))
            #expect(Set(merged.filter { $0.deviceID == "wpan1" }) == Set(got1))
        }
    }
}
