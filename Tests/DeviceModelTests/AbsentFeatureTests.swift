import BorderRouterService
import DBus
import DeviceModel
import Firewall
import MatterCommissioner
import MatterOnboarding
import TBRTestKit
import Testing
import RouterFleet
import InternetAccessPolicy

/// A feature tbrd is not given is a value, not a missing collaborator: ``NoCommissioner`` refuses every
/// call as not supported, ``NoHostFirewall`` does nothing, and a service built with them (the default)
/// answers through the same paths as one with the real thing.
@Suite struct AbsentFeatureTests {
    @Test func noCommissionerRefusesEveryCallAsNotSupported() async {
        let none = NoCommissioner()
        #expect(none.backendName == "none")
        await none.run()
        func kind(_ body: () async throws -> Void) async -> CommissionerError.Kind? {
            do { try await body() } catch let error as CommissionerError { return error.kind } catch { return nil }
            return nil
        }
        #expect(await kind { try await none.checkAvailable(timeout: .seconds(1)) } == .notSupported)
        #expect(await kind { _ = try await none.nodes(timeout: .seconds(1)) } == .notSupported)
        #expect(await kind { _ = try await none.isReachable(NodeID(1), timeout: .seconds(1)) } == .notSupported)
        #expect(await kind { try await none.removeNode(NodeID(1), timeout: .seconds(1)) } == .notSupported)
        #expect(await kind { try await none.writeNodeLabel(NodeID(1), "Lamp", timeout: .seconds(1)) } == .notSupported)
        #expect(await kind { _ = try await none.openCommissioningWindow(NodeID(1), seconds: 60, timeout: .seconds(1)) } == .notSupported)
    }

    @Test func noHostFirewallDoesNothing() async throws {
        let none = NoHostFirewall()
        #expect(none.addressChanges() == nil && none.rulesetChanges() == nil)
        #expect(try none.linkAddresses(["lan0"]).isEmpty)
        let snapshot = try await none.replace(with: FirewallRuleset())
        #expect(snapshot.listing == nil)
        #expect(try await none.isIntact(snapshot))
    }

    @Test func aServiceWithoutACommissionerAnswersNotSupported() async throws {
        try await withService { env throws in
            #expect(env.service.commissioner is NoCommissioner)
            #expect(env.service.firewall is NoHostFirewall)
            let structure = try await env.home.createStructure(name: "Home")
            try await structure.addDevice("wpan0")
            do {
                _ = try await env.service.prepareMatterCommissioning(structure: structure.id)
                Issue.record("a session without a commissioner")
            } catch let error as HomeError {
                #expect(error.code == .notSupported && error.message.contains("no Matter commissioner is configured"))
            }
            do {
                _ = try await env.service.unclaimedMatterNodes()
                Issue.record("unclaimed nodes without a commissioner")
            } catch let error as HomeError {
                #expect(error.code == .notSupported)
            }
        }
    }

    @Test func aServiceNotRunningRefusesCommissioningAndIsSettled() async throws {
        try await withPrivateBus { bus throws in
            let connection = try await Connection(bus: .address(bus.address))
            let service = BorderRouterService(connection: connection)
            // Nothing runs the reconciler yet: there is nothing to wait for.
            await service.policySettled()
            do {
                _ = try await service.prepareMatterCommissioning(structure: "1")
                Issue.record("commissioning in a service that does not run")
            } catch let error as HomeError {
                #expect(error.code == .unavailable)
            }
            await connection.close()
        }
    }
}
