import DBus
import HTTP
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import OpenThreadREST
import TBRFoundation
import TBRTestKit
import Testing

/// The REST API's node, routing and life cycle, checked against what D-Bus says of the same agent.
@Suite struct RESTNodeTests {
    @Test func theAgentIdentifiesItselfAndItsNodeIsTheOneDBusReports() async throws {
        try await withRESTSimulator { env throws in
            let identity = try await env.rest.identify()
            #expect(identity.apiVersion == "0.5.0")
            #expect(identity.borderAgentID == (try await env.dbus.read(.borderAgentID)))
            #expect(try await env.rest.role() == .disabled)
            let node = try await env.rest.node()
            #expect(node.borderAgentID == identity.borderAgentID && node.role == .disabled)
            // Before any network: the defaults, not a network.
            #expect(node.networkName == "OpenThread" && node.extendedPANID == ExtendedPANID(0xDEAD_00BE_EF00_CAFE))
            #expect(node.rloc16 == "0xfffe")
            #expect(node.extendedAddress == (try await env.dbus.read(.extendedAddress)).description)
            let raw = try await env.json("/node")
            #expect(raw["baState"] == "" && raw["routerCount"] == 0 && raw["routerId"] == nil)
            #expect(raw["leaderData"]?["partitionId"] == 0)
            #expect(raw["rlocAddress"] == "fdde:ad00:beef::ff:fe00:fffe")
            #expect(try await env.json("/node/rloc16") == 0xFFFE)
            #expect(try await env.json("/node/ext-panid") == "dead00beef00cafe")
            #expect(try await env.json("/node/network-name") == "OpenThread")
            #expect(try await env.send("GET", "/node/leader-data").status == 500, "no leader data while detached")
        }
    }

    @Test func stateChangesOverRESTAreTheRolesDBusSignals() async throws {
        try await withRESTSimulator { env throws in
            try await env.dbus.setActiveDatasetTLVs(sampleDataset)
            let roles = try await env.dbus.roleChanges()
            try await env.rest.setThreadEnabled(true)
            try await env.waitForRole(.leader, roles)
            #expect(try await env.rest.role() == .leader)
            let node = try await env.json("/node")
            let rloc16 = try await env.dbus.read(.rloc16)
            #expect(node["state"] == "leader" && node["routerCount"] == 1 && node["routerId"] == JSON(rloc16 >> 10))
            #expect(node["networkName"] == "OpenThreadDemo" && node["extPanId"] == "1111111122222222")
            #expect(node["leaderData"]?["leaderRouterId"] == JSON(rloc16 >> 10))
            #expect(node["rlocAddress"] == .string("fdad:70bf:e5aa:15dd:0:ff:fe00:" + String(rloc16, radix: 16)))
            // REST enables Thread without the host's "Thread enabled" state of D-Bus.
            #expect(try await env.control.property("ThreadEnabled", as: Bool.self) == false)
            // "disable" is immediate: no graceful detach.
            try await env.rest.setThreadEnabled(false)
            #expect(try await env.dbus.deviceRole() == .disabled)
            let bad = try await env.send("PUT", "/node/state", body: "\"off\"", contentType: "application/json")
            #expect(bad.status == 400)
            #expect(try await env.send("PUT", "/node/state", body: "enable").status == 400, "a bare word is not a JSON string")
        }
    }

    @Test func deleteNodeIsAFactoryReset() async throws {
        try await withRESTSimulator { env throws in
            try await env.rest.setDataset(sampleDataset, pending: false)
            let roles = try await env.dbus.roleChanges()
            try await env.rest.setThreadEnabled(true)
            try await env.waitForRole(.leader, roles)
            let before = try await env.rest.identify().borderAgentID
            // 200 also while attached (the spec's 409 is not what the agent answered).
            try await env.rest.eraseNode()
            #expect(try await env.rest.dataset(pending: false) == nil)
            #expect(try await env.rest.role() == .disabled)
            #expect(try await env.dbus.activeDatasetTLVs() == nil)
            #expect(try await env.rest.identify().borderAgentID != before, "a new Border Agent ID, as FactoryReset makes")
            #expect(await env.agent.isRunning, "the agent process did not restart")
        }
    }

    @Test func routingAnswersAsCppHttplibAndTheAgentsErrorHandler() async throws {
        try await withRESTSimulator { env throws in
            let missing = try await env.send("GET", "/node/nothing")
            #expect(missing.status == 404 && missing.contentType == "application/json")
            #expect(try JSON(parsing: missing.text) == ["title": "Not Found", "status": 404, "detail": ""])
            #expect(missing.headers["access-control-allow-origin"] == "*")
            // A registered path asked with a method it is not registered for is not found either.
            #expect(try await env.send("POST", "/node").status == 404)
            #expect(try await env.send("PUT", "/node/ba-id").status == 404)
            let patch = try await env.send("PATCH", "/node")
            #expect(patch.status == 405 && patch.headers["allow"] == "GET, POST, PUT, DELETE, OPTIONS")
            #expect(try JSON(parsing: patch.text)["detail"] == "method not supported")
            #expect(try await env.send("OPTIONS", "/node/state").status == 200)
            let options = try await env.send("OPTIONS", "/.well-known/thread/br-rest")
            #expect(options.status == 204 && options.headers["allow"] == "GET, OPTIONS")
            let known = try await env.json("/.well-known/thread/br-rest")
            #expect(known["links"]?.array?.first?["href"] == "/.well-known/thread/br-rest")
            let ok = try await env.send("GET", "/node/state")
            #expect(ok.headers["access-control-allow-origin"] == "*" && ok.text == "\"disabled\"")
        }
    }

    @Test func theServerGoesWithTheProcessAndComesBackOnTheSamePort() async throws {
        try await withRESTSimulator { env throws in
            let port = env.rest.base.port
            try await env.control("Crash", [.uint32(300)])
            try await eventually("the REST port refuses connections") {
                do {
                    _ = try await env.send("GET", "/node/state")
                    return false
                } catch let error as HTTPError {
                    return error.kind == .unreachable
                }
            }
            try await eventually("the REST API is back", timeout: .seconds(30)) { try await env.rest.role() == .disabled }
            #expect(await env.agent.restURL == "http://127.0.0.1:\(port ?? 0)")
            await env.agent.stop()
            await #expect(throws: RESTAgentError.self) { try await env.rest.role() }
        }
    }

    @Test func anIPv6AddressAndABuildWithoutEpskc() async throws {
        try await withRESTSimulator(configure: {
            $0.restListen = RESTListenAddress(host: "::1", port: 0)
            $0.epskcBuiltIn = false
        }) { env throws in
            #expect(env.rest.base.host == "::1")
            #expect(try await env.rest.role() == .disabled)
            #expect(try await env.send("GET", "/node/ba-epskc/state").status == 404)
            #expect(try await env.send("POST", "/node/ba-epskc/key", body: "{}").status == 404)
        }
    }
}
