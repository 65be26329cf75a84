import DBus
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing

/// The partition's Network Data around the simulated mesh: the routing manager's OMR prefix, prefixes and
/// routes added over D-Bus, `NetworkData` as TLVs and the leader data versions.
@Suite struct MeshNetworkDataTests {
    /// `OnMeshPrefixes`' one entry, split: prefix bytes, length, RLOC16, preference and the nine flags.
    struct OnMesh: Equatable {
        var prefix: [UInt8], length: UInt8, rloc16: UInt16, preference: UInt8, flags: [Bool]

        init(_ value: DBusValue) throws {
            guard case .structure(let f) = value, f.count == 12, case .structure(let p) = f[0], case .bytes(let bytes) = p[0],
                case .byte(let length) = p[1], case .uint16(let rloc) = f[1], case .byte(let preference) = f[2]
            else { throw TestKitError("not an OnMeshPrefixes entry: \(value)") }
            (prefix, self.length, rloc16, self.preference) = (bytes, length, rloc, preference)
            flags = f[3...].compactMap { if case .bool(let b) = $0 { b } else { nil } }
        }
    }

    /// Preferred, SLAAC, DHCP, configure, default route, on-mesh, stable, ND DNS, domain prefix.
    static let omrFlags = [true, true, false, false, false, true, true, false, false]

    func omr(_ env: RESTEnvironment) async throws -> OnMesh {
        let entries = try await env.rows("OnMeshPrefixes").map(OnMesh.init)
        guard entries.count == 1 else { throw TestKitError("expected the OMR prefix alone, got \(entries)") }
        return entries[0]
    }

    func bytes(_ env: RESTEnvironment, _ property: String) async throws -> [UInt8] {
        try await env.agentObject.property(property, as: [UInt8].self)
    }

    func dataVersion(_ env: RESTEnvironment) async throws -> UInt8 {
        guard case .structure(let l) = try await env.agentObject.property("LeaderData"), case .byte(let v) = l[2] else {
            throw TestKitError("LeaderData")
        }
        return v
    }

    @Test func theRoutingManagerPublishesAnOMRPrefixWhileAttached() async throws {
        try await withAttachedSimulator { env throws in
            let rloc16 = try await env.dbus.read(.rloc16)
            let omr = try await omr(env)
            #expect(omr.prefix.count == 8 && omr.prefix[0] == 0xFD && omr.prefix[6...] == [0x00, 0x01], "BR ULA /48, subnet 1")
            #expect(omr.length == 64 && omr.rloc16 == rloc16 && omr.preference == 0xFF, "a /64 at low preference")
            #expect(omr.flags == Self.omrFlags)
            #expect(try await env.rows("ExternalRoutes").isEmpty)
            // One Prefix TLV (stable): domain 0, /64, the prefix, a stable Border Router sub-TLV and the Context.
            let flags: [UInt8] = [0xF1, 0x00]  // low preference, P, S, O
            let prefixTLV = { (rloc: UInt16) -> [UInt8] in
                [0x03, 20, 0x00, 64] + omr.prefix + [0x05, 4, UInt8(rloc >> 8), UInt8(rloc & 0xFF)] + flags + [0x07, 2, 0x11, 64]
            }
            #expect(try await bytes(env, "NetworkData") == prefixTLV(rloc16))
            #expect(try await bytes(env, "StableNetworkData") == prefixTLV(0xFFFE), "the stable subset hides the RLOC16")

            try await env.dbus.detach()
            #expect(try await env.rows("OnMeshPrefixes").isEmpty)
            #expect(try await bytes(env, "NetworkData").isEmpty)
            try await env.dbus.attach()
            #expect(try await self.omr(env).prefix == omr.prefix, "the BR ULA prefix is kept")
        }
    }

    @Test func aFavouredOMRPrefixAddedOverDBusTakesTheLocalOnesPlace() async throws {
        try await withAttachedSimulator { env throws in
            let rloc16 = try await env.dbus.read(.rloc16)
            let local = try await omr(env)
            let before = try await dataVersion(env)
            let prefix = DBusValue.structure([.bytes([0xFD, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77]), .byte(64)])
            let flags = Self.omrFlags.map { DBusValue.bool($0) }
            // Medium preference beats the local prefix's low: the routing manager withdraws its own.
            _ = try await env.dbus.call("AddOnMeshPrefix", [.structure([prefix, .uint16(0x1234), .byte(0)] + flags)])
            let added = try await omr(env)
            #expect(added.prefix == [0xFD, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77] && added.rloc16 == rloc16 && added.preference == 0)
            #expect(try await dataVersion(env) != before, "the leader's data version moved")
            _ = try await env.dbus.call("AddExternalRoute", [.structure([prefix, .uint16(0), .byte(1), .bool(true), .bool(false)])])
            let routes = try await env.rows("ExternalRoutes")
            #expect(routes == [.structure([prefix, .uint16(rloc16), .byte(1), .bool(true), .bool(true)])])
            let data = try await bytes(env, "NetworkData")
            // One Prefix TLV: the Has Route sub-TLV (high preference), the Border Router one, the Context.
            #expect(data.count == 2 + 10 + 5 + 6 + 4 && data[12...16] == [0x01, 3, UInt8(rloc16 >> 8), UInt8(rloc16 & 0xFF), 0x40])
            _ = try await env.dbus.call("RemoveOnMeshPrefix", [prefix])
            _ = try await env.dbus.call("RemoveExternalRoute", [prefix])
            #expect(try await omr(env) == local)
            await #expect(throws: AgentError.self) { try await env.dbus.call("RemoveExternalRoute", [prefix]) }
        }
    }

    @Test func theBRULAPrefixSurvivesARestartButNotAFactoryReset() async throws {
        try await withAttachedSimulator { env throws in
            let first = try await omr(env).prefix
            await env.agent.crash(restartAfter: .milliseconds(50))
            try await eventually("the agent is back and leader again", wakingOn: env.dbus.remote.wakeups) { try await env.dbus.deviceRole() == .leader }
            #expect(try await omr(env).prefix == first)
            try await env.dbus.factoryReset()
            try await env.dbus.setActiveDatasetTLVs(sampleDataset)
            try await env.dbus.attach()
            #expect(try await omr(env).prefix != first, "erased settings: a new BR ULA prefix")
        }
    }
}
