import BorderRouterService
import DBus
import DeviceModel
import OTBRSimulator
import OpenThreadBR
import Testing
import RouterFleet
import InternetAccessPolicy

/// "Is it supported" answers come from the router, before any command is sent.
@Suite struct SupportTests {
    @Test func aRouterWithEpskcSupportsItsCommandsAndEvents() async throws {
        try await withService { env throws in
            let device = try await env.home.device(id: "wpan0")
            #expect(device.has(BorderRouterDevice.self) && device.has(RootNodeDevice.self))
            let br = try #require(device.type(BorderRouterDevice.self))
            let caps = try #require(br.traits(ThreadNetworkCapabilitiesTrait.self))
            let mgmt = try #require(br.traits(ThreadNetworkManagementTrait.self))
            #expect(caps.epskcSupported.isSupported)
            #expect(try await caps.epskcSupported.read())
            for command in Mgmt.Command.allCases { #expect(mgmt.supports(command)) }
            #expect(mgmt.epskcModeDeactivatedEvent.isSupported && mgmt.epskcModeActivatedEvent.isSupported)
            #expect(mgmt.networkInfo.isSupported)
        }
    }

    @Test func anAgentBuiltWithoutEpskcSaysSoBeforeAnyCall() async throws {
        try await withService(configure: { _, c in c.epskcBuiltIn = false }) { env throws in
            let (br, mgmt) = try await env.management()
            let caps = try #require(br.traits(ThreadNetworkCapabilitiesTrait.self))
            #expect(!mgmt.supports(.activateEpskcMode) && !mgmt.supports(.deactivateEpskcMode))
            #expect(mgmt.supports(.joinNetwork) && mgmt.supports(.leaveNetwork))
            #expect(!mgmt.epskcModeDeactivatedEvent.isSupported && !mgmt.epskcModeActivatedEvent.isSupported)
            #expect(caps.epskcSupported.isSupported)  // the router answers the question…
            #expect(try await caps.epskcSupported.read() == false)  // …with no
        }
    }

    @Test func internetAccessFollowsTheCapabilities() async throws {
        try await withService { env throws in
            let (br, _) = try await env.management()
            let caps = try #require(br.traits(ThreadNetworkCapabilitiesTrait.self))
            #expect(caps.internetAccessOption.isSupported)
            // The default build: NAT64 without DHCPv6-PD.
            #expect(try await caps.internetAccessOption.read() == .nat64Only)
            let changes = Recorder(caps.internetAccessOption.stream())
            _ = try await changes.wait(for: 1)
            let cases: [(Bool, Bool, ThreadNetworkCapabilitiesTrait.InternetAccessOption)] = [
                (true, true, .all), (false, true, .dhcpv6PdOnly), (false, false, .none), (true, false, .nat64Only),
            ]
            for (index, (nat64, pd, expected)) in cases.enumerated() {
                try await env.control("SetCapabilities", [.bool(nat64), .bool(pd)])
                #expect(try await caps.internetAccessOption.read() == expected)
                #expect(try await caps.read().internetAccessOption == expected)
                #expect(try await changes.wait(for: index + 2).last == expected)
            }
            // The stream saw the current value first, then each change read.
            #expect(changes.elements == [.nat64Only, .all, .dhcpv6PdOnly, .none, .nat64Only])
        }
    }

    @Test func basicInformationNamesItsSources() async throws {
        let configured = testServiceConfiguration(["wpan1": RouterConfiguration(vendorName: "Acme", vendorID: 0xFFF1, productID: 0x8001)])
        try await withService(["wpan0", "wpan1"], configure: { _, c in c.vendorName = "Simco" }, configuration: configured) {
            env throws in
            let trait0 = try #require(try await env.home.device(id: "wpan0").traits(BasicInformationTrait.self))
            let info0 = try await trait0.read()
            // Advertised names (otbr-sim stands in for mDNS), the version from OtbrVersion, no Matter ids.
            #expect(info0.vendorName == "Simco" && info0.productName == "BorderRouter")
            #expect(info0.softwareVersion == "0.3.0-otbr-sim")
            #expect(info0.vendorID == nil && info0.productID == nil)
            // Configuration wins over what is advertised; ids come from configuration only.
            let br1 = try #require(try await env.home.device(id: "wpan1").type(BorderRouterDevice.self))
            let basic1 = try #require(br1.traits(BasicInformationTrait.self))
            #expect(try await basic1.vendorName.read() == "Acme")
            #expect(try await basic1.vendorID.read() == 0xFFF1)
            #expect(try await basic1.productID.read() == 0x8001)
            // A changed advertisement shows at the next read.
            try await env.control("SetVendorInfo", [.string("Simco2"), .string("Model X")], on: "wpan0")
            let basic0 = try #require(try await env.home.device(id: "wpan0").traits(BasicInformationTrait.self))
            #expect(try await basic0.productName.read() == "Model X")
            #expect(try await basic0.vendorName.read() == "Simco2")
        }
    }
}
