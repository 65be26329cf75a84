import DBus
import MeshCoP
import OpenThreadBR
import Testing

/// Who makes the call: the typed client, or `dbus-send` as an independent client (busctl mangles
/// unknown error names, dbus-send prints them exactly).
enum Caller: String, CaseIterable, CustomTestStringConvertible {
    case client, dbusSend
    var testDescription: String { rawValue }
}

/// A reply: success with the key (for Activate) or the exact error name.
enum Outcome: Equatable {
    case ok(String?)
    case error(String)

    var isOK: Bool { if case .ok = self { true } else { false } }
    var key: String? { if case .ok(let k) = self { k } else { nil } }
}

extension SimEnvironment {
    func activate(_ lifetimeMs: UInt32, via caller: Caller) async throws -> Outcome {
        switch caller {
        case .client:
            do {
                return .ok(try await client.activateEphemeralKeyMode(lifetime: .milliseconds(Int64(lifetimeMs))).digits)
            } catch {
                return .error(errorName(error))
            }
        case .dbusSend:
            let r = try await dbusSend.call("ActivateEphemeralKeyMode", ["uint32:\(lifetimeMs)"])
            if let name = r.errorName { return .error(name) }
            let key = r.stdout.split(separator: "\"").dropFirst().first.map(String.init)
            return .ok(key)
        }
    }

    func deactivate(retain: Bool, via caller: Caller) async throws -> Outcome {
        switch caller {
        case .client:
            do {
                try await client.deactivateEphemeralKeyMode(retainActiveSession: retain)
                return .ok(nil)
            } catch {
                return .error(errorName(error))
            }
        case .dbusSend:
            let r = try await dbusSend.call("DeactivateEphemeralKeyMode", ["boolean:\(retain)"])
            return r.errorName.map(Outcome.error) ?? .ok(nil)
        }
    }

    func epskcState() async throws -> String { try await control.property("EphemeralKeyState", as: String.self) }
}

/// The error name an agent error carries (what the wire said).
func errorName(_ error: any Error) -> String {
    guard let e = error as? AgentError else { return "\(error)" }
    switch e.cause {
    case .openThread(let ot): return ot.errorName.rawValue
    case .unknownOpenThreadError(let name): return name.rawValue
    case .bus(let b): return b.name.rawValue
    default: return "\(e.cause)"
    }
}

/// Every row of `../otbr/README.md`'s "Reply expectations" table, through the client and through
/// dbus-send, with exact error names.
@Suite struct ReplyExpectationTests {
    @Test(arguments: Caller.allCases)
    func activateWhileFeatureDisabledIsNotCapable(caller: Caller) async throws {
        try await withSimulator { env throws in
            try await env.client.setEphemeralKeyEnabled(false)
            #expect(try await env.activate(0, via: caller) == .error("io.openthread.Error.NotCapable"))
        }
    }

    @Test(arguments: Caller.allCases)
    func activateWhileStartedIsBusy(caller: Caller) async throws {
        try await withSimulator { env throws in
            #expect(try await env.activate(0, via: .client).isOK)
            #expect(try await env.activate(0, via: caller) == .error("io.openthread.Error.Busy"))
        }
    }

    @Test(arguments: Caller.allCases)
    func activateAboveTenMinutesIsInvalidArgs(caller: Caller) async throws {
        try await withSimulator { env throws in
            #expect(try await env.activate(600_001, via: caller) == .error("io.openthread.Error.InvalidArgs"))
            #expect(try await env.activate(600_000, via: caller).isOK)
        }
    }

    @Test(arguments: Caller.allCases)
    func activateReturnsANineDigitVerhoeffValidKey(caller: Caller) async throws {
        try await withSimulator { env throws in
            let key = try #require(try await env.activate(0, via: caller).key)
            #expect(key.count == 9 && key.allSatisfy(\.isNumber))
            #expect(throws: Never.self) { try EphemeralKey(validating: key) }
            #expect(try await env.epskcState() == "started")
        }
    }

    @Test(arguments: Caller.allCases)
    func deactivateRetainingWhileConnectedKeepsTheSession(caller: Caller) async throws {
        try await withSimulator { env throws in
            let key = try #require(try await env.activate(0, via: .client).key)
            #expect(try await env.control("ConnectCommissioner", [.string(key)]) == [.bool(true)])
            #expect(try await env.epskcState() == "connected")
            #expect(try await env.deactivate(retain: true, via: caller) == .ok(nil))
            #expect(try await env.epskcState() == "connected")
        }
    }

    @Test(arguments: Caller.allCases)
    func deactivateWithoutRetainWhileConnectedDropsTheSession(caller: Caller) async throws {
        try await withSimulator { env throws in
            let key = try #require(try await env.activate(0, via: .client).key)
            #expect(try await env.control("ConnectCommissioner", [.string(key)]) == [.bool(true)])
            #expect(try await env.deactivate(retain: false, via: caller) == .ok(nil))
            #expect(try await env.epskcState() == "stopped")
            #expect(try await env.control("DisconnectCommissioner") == [.bool(false)])
        }
    }

    @Test(arguments: Caller.allCases)
    func deactivateWhileDisabledIsNotCapable(caller: Caller) async throws {
        try await withSimulator { env throws in
            try await env.client.setEphemeralKeyEnabled(false)
            #expect(try await env.deactivate(retain: false, via: caller) == .error("io.openthread.Error.NotCapable"))
        }
    }

    @Test(arguments: Caller.allCases)
    func deactivateWhileStoppedIsANoOp(caller: Caller) async throws {
        try await withSimulator { env throws in
            #expect(try await env.deactivate(retain: false, via: caller) == .ok(nil))
            #expect(try await env.epskcState() == "stopped")
        }
    }
}

/// The replies "Observed on a real otbr-agent", through dbus-send (exact names) and the client.
@Suite struct ObservedReplyTests {
    @Test func propertyErrorsOfAFactoryNewNode() async throws {
        try await withSimulator { env throws in
            let send = env.dbusSend
            #expect(try await send.get("ActiveDatasetTlvs").errorName == "io.openthread.Error.NotFound")
            #expect(try await send.get("PendingDatasetTlvs").errorName == "io.openthread.Error.NotFound")
            #expect(try await send.get("RouterID").errorName == "io.openthread.Error.InvalidState")
            #expect(try await send.get("LeaderData").errorName == "io.openthread.Error.Detached")
            #expect(try await send.get("NoSuchProperty").errorName == "io.openthread.Error.NotFound")
            #expect(try await send.get("Dhcp6PdState").errorName == "io.openthread.Error.NotFound")
            let wrongTypes = try await send.call("Get", ["int32:1", "int32:2"], interface: "org.freedesktop.DBus.Properties")
            #expect(wrongTypes.errorName == "io.openthread.Error.Parse")
            let getAll = try await send.call("GetAll", ["string:io.openthread.BorderRouter"], interface: "org.freedesktop.DBus.Properties")
            #expect(getAll.errorName == "io.openthread.Error.NotImplemented")
            let setReadOnly = try await send.call(
                "Set", ["string:io.openthread.BorderRouter", "string:NetworkName", "variant:string:x"],
                interface: "org.freedesktop.DBus.Properties")
            #expect(setReadOnly.errorName == "io.openthread.Error.NotFound")
            let setUnknown = try await send.call(
                "Set", ["string:io.openthread.BorderRouter", "string:Nope", "variant:boolean:true"],
                interface: "org.freedesktop.DBus.Properties")
            #expect(setUnknown.errorName == "io.openthread.Error.NotFound")
            // Errors carry no text.
            #expect(await otError { _ = try await env.client.read(.activeDatasetTLVs) } == .notFound)
            #expect(await otError { _ = try await env.client.read(AgentProperty<UInt8>("RouterID")) } == .invalidState)
        }
    }

    @Test func factoryNewValues() async throws {
        try await withSimulator { env throws in
            let (role, name, pan, channel, version, epskc, nat64, capabilities, rloc, cidr) = try await env.client.read(
                .deviceRole, .networkName, .panID, .channel, .threadVersion, .ephemeralKeyEnabled, .nat64State,
                .capabilities, .rloc16, .nat64CIDR)
            #expect(role == .disabled)
            #expect(name == "OpenThread")
            #expect(pan == PANID(65535))
            #expect(channel == 11)
            #expect(version == 5)
            #expect(epskc)
            #expect(nat64 == .disabled)
            #expect(capabilities.serialized() == [0x08, 0x01, 0x10, 0x00])
            #expect(rloc == 65534)
            #expect(cidr == "192.168.255.0/24")
            #expect(try await env.client.read(.featureFlags) == FeatureFlagList())
        }
    }

    @Test func epskcArgumentsAreCheckedAfterStateForActivateAndBeforeForDeactivate() async throws {
        try await withSimulator { env throws in
            let send = env.dbusSend
            #expect(try await send.call("ActivateEphemeralKeyMode", ["string:x"]).errorName == "io.openthread.Error.InvalidArgs")
            #expect(try await send.call("ActivateEphemeralKeyMode").errorName == "io.openthread.Error.InvalidArgs")
            #expect(try await send.call("DeactivateEphemeralKeyMode", ["uint32:1"]).errorName == "io.openthread.Error.InvalidArgs")
            try await env.client.setEphemeralKeyEnabled(false)
            // State first for Activate: NotCapable even with a bad argument.
            #expect(try await send.call("ActivateEphemeralKeyMode", ["string:x"]).errorName == "io.openthread.Error.NotCapable")
            // Argument first for Deactivate: InvalidArgs even when the feature is off.
            #expect(try await send.call("DeactivateEphemeralKeyMode", ["uint32:1"]).errorName == "io.openthread.Error.InvalidArgs")
        }
    }

    @Test func setOfTooLongADatasetSucceedsAndIsIgnoredButTheClientRefusesIt() async throws {
        try await withSimulator { env throws in
            let tooLong = [UInt8](repeating: 0x7F, count: 255)
            // Straight to the agent: success, nothing stored.
            try await env.client.write("ActiveDatasetTlvs", .bytes(tooLong))
            #expect(try await env.client.activeDatasetTLVs() == nil)
            // Through the client's guard: refused before Set.
            let cause = await agentCause { try await env.client.setActiveDatasetTLVs(tooLong) }
            guard case .invalidRequest(let why)? = cause else {
                Issue.record("expected an invalid request, got \(String(describing: cause))")
                return
            }
            #expect(why.contains("254"))
            // Bytes that are not TLVs: InvalidArgs. An empty dataset is accepted.
            #expect(await otError { try await env.client.setActiveDatasetTLVs([0x0e, 0x08, 0x00]) } == .invalidArgs)
            try await env.client.setActiveDatasetTLVs([])
            #expect(try await env.client.activeDatasetTLVs() == [])
        }
    }
}
