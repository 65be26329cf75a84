import OTBRSimulator
import OpenThreadBR
import TBRFoundation
import TBRTestKit
import Testing

/// The REST API's network diagnostics (`/api/actions`, `/api/devices`, `/api/diagnostics`) over the
/// simulated mesh, two-hop nodes included, with the shapes and quirks of ot-br-posix's source.
@Suite struct RESTDiagnosticsTests {
    @Test func aDiagnosticTaskGoesFromPendingToCompletedAndItsResultIsADiagnosticsItem() async throws {
        try await withAttachedSimulator { env throws in
            let own = try await env.routerID()
            let routerA = try await env.addNode("router", 0xA0, linkQuality: 3)
            try await env.addNode("child", 0xC1, rxOnWhenIdle: false, fullThreadDevice: false, timeout: 240)
            let types = ["route", "rloc16", "extAddress", "mode", "leaderData", "children", "route"]
            let (status, posted) = try await env.post([discovery(), diagnosticTask(hex(0xA0), types)])
            #expect(status == 200 && posted["meta"]?["collection"] == ["offset": 0, "limit": 200, "total": 2])
            let created = try #require(posted["data"]?.array)
            #expect(created.map { $0["attributes"]?["status"] } == ["pending", "pending"])
            // The types once each, in TLV order; the destination type filled in; no `created` yet.
            #expect(created[1]["attributes"]?["types"] == ["extAddress", "rloc16", "mode", "route", "leaderData", "children"])
            #expect(created[1]["attributes"]?["destinationType"] == "extended" && created[1]["attributes"]?["created"] == nil)
            let task = try await env.waitForTask(try #require(created[1]["id"]?.string), "completed")
            #expect(task["attributes"]?["created"]?.string?.hasSuffix("+00:00") == true && task["attributes"]?["timeout"] == nil)
            #expect(task["relationships"]?["result"]?["data"]?["type"] == "diagnostics")
            let item = try await env.result(of: task)
            #expect(item["type"] == "networkDiagnostics")
            let a = try #require(item["attributes"])
            #expect(a["extAddress"] == "00000000000000a0" && a["rloc16"] == .string(hex16(routerA)) && a["routerId"] == JSON(routerA >> 10))
            #expect(a["mode"] == ["rxOnWhenIdle": true, "fullThreadDevice": true, "fullNetworkData": true])
            #expect(a["leaderData"]?["leaderRouterId"] == JSON(own) && a["created"] != nil)
            let routes = try #require(a["route"]?["routeData"]?.array)
            #expect(routes.contains(["routeId": JSON(own), "linkQualityOut": 3, "linkQualityIn": 3, "routeCost": 1]))
            #expect(routes.contains(["routeId": JSON(routerA >> 10), "linkQualityOut": 0, "linkQualityIn": 0, "routeCost": 1]), "itself")
            #expect(a["children"] == [], "router A has no children")
            // Plain JSON: the attributes alone.
            let plain = try await env.api("/api/diagnostics", accept: "application/json")
            #expect(plain.array?.first?["extAddress"] == "00000000000000a0" && plain.array?.first?["created"] == nil)
        }
    }

    @Test func discoveryFindsTwoHopNodesAndTheyAnswerTheirDiagnostics() async throws {
        try await withAttachedSimulator { env throws in
            let own = try await env.routerID()
            let routerA = try await env.addNode("router", 0xA0, linkQuality: 3)
            let routerB = try await env.addNode("router", 0xB0, parent: 0xA0, linkQuality: 2)
            let childD = try await env.addNode("child", 0xD1, parent: 0xB0, linkQuality: 1, rxOnWhenIdle: true, fullThreadDevice: false, timeout: 100)
            try await env.discoverDevices()
            let devices = try #require(try await env.api("/api/devices")["data"]?.array)
            #expect(Set(devices.compactMap { $0["id"]?.string }) == Set([hex(0xA0), hex(0xB0), hex(0xD1), try await env.json("/node/ext-address").string ?? ""]))
            let own16 = try #require(devices.first { $0["type"] == "threadBorderRouter" }?["attributes"])
            #expect(own16["state"] == "leader" && own16["role"] == "router" && own16["routerCount"] == 3 && own16["routerId"] == JSON(own))
            let d = try #require(devices.first { $0["id"] == .string(hex(0xD1)) }?["attributes"])
            // The agent's defect: a child's rxOnWhenIdle and fullThreadDevice swapped.
            #expect(d["role"] == "child" && d["mode"] == ["fullThreadDevice": true, "rxOnWhenIdle": false, "fullNetworkData": true])
            let ids = try await env.postTasks([
                diagnosticTask(hex(0xB0), ["extAddress", "rloc16", "route", "children", "routerNeighbors"]),
                diagnosticTask(hex(0xD1), ["extAddress", "rloc16", "mode", "timeout", "leaderData"]),
            ])
            let b = try #require(try await env.result(of: try await env.waitForTask(ids[0], "completed"))["attributes"])
            let routes = try #require(b["route"]?["routeData"]?.array)
            #expect(routes.contains(["routeId": JSON(own), "linkQualityOut": 0, "linkQualityIn": 0, "routeCost": 3]), "two links away")
            #expect(routes.contains(["routeId": JSON(routerA >> 10), "linkQualityOut": 2, "linkQualityIn": 2, "routeCost": 2]))
            #expect(b["children"]?.array?.map { $0["rloc16"] } == [.string(hex16(childD))])
            #expect(b["children"]?.array?.first?["timeout"] == 100 && b["children"]?.array?.first?["fullThreadDevice"] == false)
            #expect(b["routerNeighbors"]?.array?.map { $0["extAddress"] } == ["00000000000000a0"])
            #expect(routerB & 0x1FF == 0)
            let child = try #require(try await env.result(of: try await env.waitForTask(ids[1], "completed"))["attributes"])
            #expect(child["rloc16"] == .string(hex16(childD)) && child["routerId"] == nil)
            #expect(child["mode"] == ["rxOnWhenIdle": true, "fullThreadDevice": false, "fullNetworkData": true])
            #expect(child["timeout"] == nil, "only a node that is not rx-on-when-idle reports its timeout")
        }
    }

    @Test func tasksTheAgentCannotAnswerEndAsItsSourceSays() async throws {
        try await withAttachedSimulator { env throws in
            try await env.addNode("child", 0xC1)
            try await env.discoverDevices()
            let ids = try await env.postTasks([
                diagnosticTask("0x6401", ["extAddress"]),  // an RLOC16: answered, but the agent keeps no item
                diagnosticTask(hex(0xEE), ["extAddress"], timeout: 1),  // no such device: never starts
                diagnosticTask(hex(0xC1), ["extAddress", "route"], timeout: 1),  // a child has no Route64: waits it out
            ])
            let byRloc = try await env.waitForTask(ids[0], "completed")
            #expect(byRloc["relationships"]?["result"]?["data"]?["id"] == "")
            #expect(try await env.waitForTask(ids[1], "stopped")["relationships"] == nil)
            let partial = try await env.result(of: try await env.waitForTask(ids[2], "completed"))
            #expect(partial["attributes"]?["extAddress"] == "00000000000000c1" && partial["attributes"]?["route"] == nil)
            let diagnostics = try #require(try await env.api("/api/diagnostics")["data"]?.array)
            #expect(diagnostics.count == 1)
            let actions = try await env.api("/api/actions")
            #expect(actions["meta"]?["collection"]?["pending"] == 0 && actions["meta"]?["collection"]?["total"] == 4)
        }
    }

    @Test func badRequestsGetTheAgentsStatuses() async throws {
        try await withAttachedSimulator { env throws in
            // (Without a Content-Type the agent answers 406; libcurl always sends one with a body.)
            #expect(try await env.post([discovery()], contentType: "application/json").status == 415)
            let notJSON = try await env.send("POST", "/api/actions", body: "{", contentType: RESTEnvironment.jsonAPI)
            #expect(notJSON.status == 400)
            let invalid: [JSON] = [
                ["type": "discoverThreadNetworksTask", "attributes": [:]], ["type": "getNetworkDiagnosticTask"],
                diagnosticTask(hex(0xA0), ["extAddress"], destinationType: "rloc"), diagnosticTask("abc", ["extAddress"]),
                diagnosticTask(hex(0xA0), ["nonsense"]),
                ["type": "getNetworkDiagnosticTask", "attributes": ["destination": .string(hex(0xA0)), "types": []]],
                ["type": "updateDeviceCollectionTask", "attributes": ["maxAge": 1, "maxRetries": 1, "timeout": 1]],
            ]
            for task in invalid {
                let answer = try await env.post([discovery(), task])
                #expect(answer.status == 422 && answer.json["title"] == "Unprocessable Content", "\(task)")
            }
            #expect(try await env.api("/api/actions")["data"] == [], "a rejected POST creates nothing")
            #expect(try await env.send("GET", "/api/devices", accept: "text/html").status == 406)
            #expect(try await env.send("GET", "/api/actions/not-a-uuid").status == 404)
            #expect(try await env.send("OPTIONS", "/api/actions").headers["allow"] == "GET, POST, DELETE, OPTIONS")
            // Deleting a device: the agent's check is the wrong way round.
            let own = try #require(try await env.json("/node/ext-address").string)
            #expect(try await env.send("DELETE", "/api/devices/\(own)").status == 404)
            #expect(try await env.send("GET", "/api/node").status == 404, "the agent's own item is gone too")
            #expect(try await env.send("DELETE", "/api/devices/\(own)").status == 204)
        }
    }
}
