import DBus
import HTTP
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import OpenThreadREST
import TBRFoundation
import TBRTestKit
import Testing

/// The REST API's datasets are the ones D-Bus reads and writes.
@Suite struct RESTDatasetTests {
    @Test func aDatasetWrittenOverRESTIsTheOneDBusReports() async throws {
        try await withRESTSimulator { env throws in
            #expect(try await env.rest.dataset(pending: false) == nil)
            #expect(try await env.send("GET", "/node/dataset/active").status == 204)
            let changes = try await env.dbus.activeDatasetChanges()
            #expect(try await env.rest.setDataset(sampleDataset, pending: false) == .created)
            // The agent made a new network and merged what was written into it: its Wake-up Channel TLV
            // is the one TLV left in front of the written ones.
            let plain = try await env.send("GET", "/node/dataset/active", accept: "text/plain")
            #expect(plain.status == 200 && plain.contentType == "text/plain")
            #expect(plain.text == plain.text.uppercased())
            let tlvs = try Hex.decode(plain.text)
            #expect(Array(tlvs.prefix(3)) == [0x4A, 0x03, 0x00] && tlvs.count == 5 + sampleDataset.count)
            #expect((11...26).contains(tlvs[4]) && Array(tlvs.dropFirst(5)) == sampleDataset)
            // D-Bus reads the same bytes, and signalled them.
            #expect(try await env.dbus.activeDatasetTLVs() == tlvs)
            #expect(try await firstEvents(changes, count: 2) == [nil, tlvs])
            // The JSON form: OpenThread's components, not the Wake-up Channel.
            let json = try await env.json("/node/dataset/active")
            #expect(json["networkName"] == "OpenThreadDemo" && json["channel"] == 15 && json["panId"] == 0x1234)
            #expect(json["meshLocalPrefix"] == "fdad:70bf:e5aa:15dd::/64" && json["channelMask"] == 0x07FF_F800)
            #expect(json["activeTimestamp"] == ["seconds": 1, "ticks": 0, "authoritative": false])
            #expect(json["securityPolicy"]?["rotationTime"] == 672 && json["securityPolicy"]?["obtainNetworkKey"] == true)
            #expect(json["pskc"] == "445f2b5ca6f2a93a55ce570a70efeecb" && json.object?.count == 10)
            // A second write updates (200); what is not a TLV list is refused.
            #expect(try await env.rest.setDataset(sampleDataset, pending: false) == .updated)
            #expect(try await env.send("PUT", "/node/dataset/active", body: "not hex", contentType: "text/plain").status == 400)
            let long = String(repeating: "00", count: 255)
            #expect(try await env.send("PUT", "/node/dataset/active", body: long, contentType: "text/plain").status == 400)
            // Hex that is not TLVs fails inside OpenThread: 500 (OTBR_ERROR_REST), not 400.
            #expect(try await env.send("PUT", "/node/dataset/active", body: "0e02", contentType: "text/plain").status == 500)
            // Any other content type is JSON: the written keys replace those TLVs.
            let renamed = try await env.send(
                "PUT", "/node/dataset/active", body: #"{"networkName": "Renamed", "channel": 20}"#, contentType: "application/json")
            #expect(renamed.status == 200)
            let after = try OperationalDataset(bytes: try #require(try await env.dbus.activeDatasetTLVs()))
            #expect(after.networkName == NetworkName("Renamed") && after.channel == Channel(20))
            #expect(after.tlvs.suffix(2).map(\.type) == [.channel, .networkName], "replaced TLVs go to the end, in OpenThread's order")
            #expect(try await env.send("PUT", "/node/dataset/active", body: "{\"channel\"", contentType: "application/json").status == 400)
            #expect(try await env.send("PUT", "/node/dataset/active", body: #"{"networkKey": "00"}"#).status == 400)
            #expect(try await env.send("PUT", "/node/dataset/active", body: #"{"activeTimestamp": 5}"#).status == 400)
        }
    }

    @Test func theActiveDatasetIsWrittenOnlyWhileThreadIsDisabled() async throws {
        try await withRESTSimulator { env throws in
            try await env.rest.setDataset(sampleDataset, pending: false)
            let roles = try await env.dbus.roleChanges()
            try await env.rest.setThreadEnabled(true)
            try await env.waitForRole(.leader, roles)
            let refused = try await env.send("PUT", "/node/dataset/active", body: Hex.encode(sampleDataset), contentType: "text/plain")
            #expect(refused.status == 409)
            #expect(try JSON(parsing: refused.text) == ["title": "Conflict", "status": 409, "detail": ""])
            do throws(RESTAgentError) {
                try await env.rest.setDataset(sampleDataset, pending: false)
                Issue.record("a write while attached was taken")
            } catch {
                #expect(error.kind == .refused && error.status == 409)
            }
        }
    }

    @Test func aPendingDatasetIsDBusesPendingDatasetAndNeedsADelay() async throws {
        try await withRESTSimulator(configure: { $0.pendingDelay = .seconds(300) }) { env throws in
            #expect(try await env.send("GET", "/node/dataset/pending").status == 204)
            let noDelay = #"{"activeDataset": {"networkName": "Next", "channel": 25}, "pendingTimestamp": {"seconds": 10}}"#
            #expect(try await env.send("PUT", "/node/dataset/pending", body: noDelay).status == 400)
            #expect(try await env.send("PUT", "/node/dataset/pending", body: #"{"activeDataset": 7, "delay": 1}"#).status == 400)
            let body = #"{"activeDataset": {"networkName": "Next", "channel": 25}, "pendingTimestamp": {"seconds": 10}, "delay": 60000}"#
            #expect(try await env.send("PUT", "/node/dataset/pending", body: body).status == 201)
            let pending = try OperationalDataset(bytes: try #require(try await env.dbus.pendingDatasetTLVs()))
            #expect(pending.networkName == NetworkName("Next") && pending.channel == Channel(25))
            #expect(pending.pendingTimestamp?.seconds == 10 && pending.wakeUpChannel != nil)
            #expect((pending.delayTimer?.milliseconds ?? 0) <= 60000)
            let json = try await env.json("/node/dataset/pending")
            #expect(json["activeDataset"]?["networkName"] == "Next" && json["pendingTimestamp"]?["seconds"] == 10)
            #expect((json["delay"]?.int64 ?? 0) > 0 && (json["delay"]?.int64 ?? 0) <= 60000)
            let hex = try #require(try await env.rest.dataset(pending: true))
            #expect(try OperationalDataset(bytes: hex).networkName == NetworkName("Next"))
            #expect(try await env.rest.setDataset(pending.encoded(), pending: true) == .updated)
        }
    }
}
