import DBus
import Foundation
import OpenThreadBR
import Testing

/// The simulator's introspection against the shipped interface: ot-br-posix `introspect.xml` with the
/// deviations the code makes (`../otbr/README.md` 1.5), kept here as a table, and compared with the XML
/// file itself, which must be present (`../shared/otbr/introspect.xml` beside the project, or
/// `$OTBR_INTROSPECT_XML`): without it the comparison fails rather than passing unchecked.
@Suite struct ConformanceTests {
    /// The shipped XML was not where the tests looked.
    struct ShippedXMLMissing: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "ot-br-posix's introspect.xml is not at \(path): the simulator cannot be checked against the shipped "
                + "interface. Put the shared files beside the project (../shared/otbr/introspect.xml) or set "
                + "OTBR_INTROSPECT_XML to the file."
        }
    }

    /// The workplace's copy of the shared files, for a checkout that is not beside them.
    static let workplaceXML = "/work/shared/otbr/introspect.xml"

    /// Where ot-br-posix's `introspect.xml` is looked for: `$OTBR_INTROSPECT_XML` when set, else
    /// `../shared/otbr/introspect.xml` relative to the project root (`testFile` is
    /// `Tests/OpenThreadBRTests/ConformanceTests.swift` in the project), else the workplace's
    /// `/work/shared/otbr/introspect.xml` when only that exists. When none exists the path beside the
    /// project is returned, so the failure names it.
    static func shippedXMLPath(
        environment: [String: String] = ProcessInfo.processInfo.environment, testFile: String = #filePath,
        exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> String {
        if let path = environment["OTBR_INTROSPECT_XML"], !path.isEmpty { return path }
        let projectRoot = URL(fileURLWithPath: testFile).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let beside = projectRoot.appendingPathComponent("../shared/otbr/introspect.xml").standardized.path
        if !exists(beside), exists(workplaceXML) { return workplaceXML }
        return beside
    }

    /// The text of the shipped XML at `path`.
    /// - Throws: ``ShippedXMLMissing`` when there is no file there; the file's read error otherwise.
    static func readShippedXML(at path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw ShippedXMLMissing(path: path) }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static let mac32 = "(" + String(repeating: "u", count: 32) + ")"

    /// `io.openthread.BorderRouter` as the RCP agent's code registers it.
    static let expectedMethods: [String: IntrospectedInterface.Method] = [
        "Scan": .init(inputs: "", outputs: "a(tstayqqynyybb)"),
        "EnergyScan": .init(inputs: "u", outputs: "a(yy)"),
        "Attach": .init(inputs: "ayqstayu", outputs: ""),
        "AttachAllNodesTo": .init(inputs: "ay", outputs: "x"),
        "Detach": .init(inputs: "", outputs: ""),
        "PermitUnsecureJoin": .init(inputs: "qu", outputs: ""),
        "JoinerStart": .init(inputs: "ssssss", outputs: ""),
        "JoinerStop": .init(inputs: "", outputs: ""),
        "FactoryReset": .init(inputs: "", outputs: ""),
        "Reset": .init(inputs: "", outputs: ""),
        "AddExternalRoute": .init(inputs: "((ayy)qybb)", outputs: ""),
        "RemoveExternalRoute": .init(inputs: "(ayy)", outputs: ""),
        "AddOnMeshPrefix": .init(inputs: "((ayy)qybbbbbbbbb)", outputs: ""),
        "RemoveOnMeshPrefix": .init(inputs: "(ayy)", outputs: ""),
        "SetBorderAgentEnabled": .init(inputs: "b", outputs: ""),
        "UpdateVendorMeshCopTxtEntries": .init(inputs: "a(say)", outputs: ""),
        "GetProperties": .init(inputs: "as", outputs: "av"),  // the XML declares no output
        "LeaveNetwork": .init(inputs: "", outputs: ""),
        "SetNat64Enabled": .init(inputs: "b", outputs: ""),
        "ActivateEphemeralKeyMode": .init(inputs: "u", outputs: "s"),
        "DeactivateEphemeralKeyMode": .init(inputs: "b", outputs: ""),
        "SetThreadEnabled": .init(inputs: "b", outputs: ""),  // code only
        "Join": .init(inputs: "ay", outputs: ""),  // code only
    ]

    static func r(_ type: String) -> IntrospectedInterface.Property { .init(type: type, access: "read", emitsChanged: "false") }
    static func rw(_ type: String) -> IntrospectedInterface.Property {
        .init(type: type, access: "readwrite", emitsChanged: "false")
    }

    static let expectedProperties: [String: IntrospectedInterface.Property] = [
        "EphemeralKeyEnabled": rw("b"), "MeshLocalPrefix": rw("ay"), "LinkMode": rw("(bbb)"),
        "DeviceRole": .init(type: "s", access: "read", emitsChanged: "true"),
        "NetworkName": r("s"), "PanId": r("q"), "ExtPanId": r("t"), "Channel": r("q"), "CcaFailureRate": r("q"),
        "MacCounters": r(mac32), "LinkCounters": r(mac32),  // the XML says (uuuu); the getter returns MAC counters
        "LinkSupportedChannelMask": r("u"), "LinkPreferredChannelMask": r("u"), "Rloc16": r("q"),
        "ExtendedAddress": r("t"), "RouterID": r("y"), "LeaderData": r("(uyyyy)"), "NetworkData": r("ay"),
        "StableNetworkData": r("ay"), "LocalLeaderWeight": r("y"), "ChannelMonitorSampleCount": r("u"),
        "ChannelMonitorAllChannelQualities": r("a(yq)"),  // XML: ChannelMonitorChannelQualityMap
        "ChildTable": r("a(tuuqqyyyyqqbbbb)"), "NeighborTable": r("a(tuquuyyyqqqbbbb)"),
        "PartitionID": r("u"),  // XML: PartitionId
        "InstantRssi": r("y"), "RadioTxPower": r("y"),
        "ExternalRoutes": r("a((ayy)qybb)"),  // XML: a single struct
        "OnMeshPrefixes": r("a((ayy)qybbbbbbbbb)"),
        "ActiveDatasetTlvs": .init(type: "ay", access: "readwrite", emitsChanged: "true"),  // XML: false
        "PendingDatasetTlvs": r("ay"), "FeatureFlagListData": rw("ay"), "RadioRegion": rw("s"),
        "SrpServerInfo": r("(yqy(uutttt)(uutttt)(uuuuuu))"), "DnssdCounters": r("(uuuuuuu)"),
        "MdnsTelemetryInfo": r("((uuuuuuuu)(uuuuuuuu)(uuuuuuuu)(uuuuuuuu)uuuu)"),  // XML: malformed
        "OtbrVersion": r("s"), "OtHostVersion": r("s"), "OtRcpVersion": r("s"), "ThreadVersion": r("q"),
        "Eui64": r("t"), "BorderAgentId": r("ay"), "RadioSpinelMetrics": r("(uuuu)"),
        "RcpInterfaceMetrics": r("(yttttttt)"), "Uptime": r("t"), "RadioCoexMetrics": r("(uuuuuuuuuuuuuuuuuub)"),
        "Nat64State": r("(ss)"), "Nat64Mappings": r("a(tayayu((tttt)(tttt)(tttt)(tttt)))"),
        "Nat64ProtocolCounters": r("((tttt)(tttt)(tttt)(tttt))"), "Nat64ErrorCounters": r("((tt)(tt)(tt)(tt))"),
        "Nat64Cidr": rw("s"), "BorderRoutingCounters": r("((tt)(tt)(tt)(tt)uuuuuu)"), "InfraLinkInfo": r("(sbbbuuu)"),
        "TrelInfo": r("(bq(ttttt))"), "MultiAilDetected": r("b"), "DnsUpstreamQueryState": rw("b"),
        "TelemetryData": r("ay"), "Capabilities": r("ay"),
        "NetworkKey": r("ay"), "Ip6Counters": r("(uuuu)"),  // code only
    ]

    /// What the code changes relative to the XML: XML name → name in the code (nil: same name).
    static let renamed = ["PartitionId": "PartitionID", "ChannelMonitorChannelQualityMap": "ChannelMonitorAllChannelQualities"]
    /// XML members whose signature the code changes (checked against the table above instead).
    static let retyped: Set<String> = ["LinkCounters", "ExternalRoutes", "MdnsTelemetryInfo", "ActiveDatasetTlvs", "GetProperties"]

    func simulatorInterfaces() async throws -> [String: IntrospectedInterface] {
        var xml = ""
        try await withSimulator { env in xml = try await env.client.remote.introspect() }
        return try #require(IntrospectionParser.parse(xml))
    }

    @Test func simulatorMatchesTheExpectedTable() async throws {
        let interfaces = try await simulatorInterfaces()
        let agent = try #require(interfaces["io.openthread.BorderRouter"])
        #expect(agent.methods == Self.expectedMethods)
        #expect(agent.properties == Self.expectedProperties)
        #expect(agent.signals == ["Ready": ""])
        let properties = try #require(interfaces["org.freedesktop.DBus.Properties"])
        #expect(properties.methods["Get"] == .init(inputs: "ss", outputs: "v"))
        #expect(properties.methods["GetAll"] == .init(inputs: "s", outputs: "a{sv}"))
        #expect(properties.methods["Set"] == .init(inputs: "ssv", outputs: ""))
        #expect(properties.signals["PropertiesChanged"] == "sa{sv}as")
        #expect(interfaces["org.freedesktop.DBus.Introspectable"]?.methods["Introspect"]?.outputs == "s")
    }

    @Test func theShippedXMLIsLookedForBesideTheProject() {
        let file = "/src/tbrd/Tests/OpenThreadBRTests/ConformanceTests.swift"
        #expect(Self.shippedXMLPath(environment: [:], testFile: file, exists: { _ in true }) == "/src/shared/otbr/introspect.xml")
        #expect(Self.shippedXMLPath(environment: [:], testFile: file, exists: { $0 == Self.workplaceXML }) == Self.workplaceXML)
        // Neither: the path beside the project, which the failure then names.
        #expect(Self.shippedXMLPath(environment: [:], testFile: file, exists: { _ in false }) == "/src/shared/otbr/introspect.xml")
        #expect(Self.shippedXMLPath(environment: ["OTBR_INTROSPECT_XML": "/elsewhere/introspect.xml"]) == "/elsewhere/introspect.xml")
    }

    @Test func aMissingShippedXMLIsAnErrorThatSaysWhereItLooked() {
        let bogus = "/nonexistent/shared/otbr/introspect.xml"
        let error = #expect(throws: ShippedXMLMissing.self) { try Self.readShippedXML(at: bogus) }
        #expect(error?.path == bogus)
        #expect(error?.description.contains("is not at \(bogus)") == true)
    }

    @Test func simulatorHasEveryMemberOfTheShippedXML() async throws {
        // Fails (ShippedXMLMissing) when the file is absent: this test never passes without comparing.
        let text = try Self.readShippedXML(at: Self.shippedXMLPath())
        let shipped = try #require(IntrospectionParser.parse(text), "introspect.xml does not parse")
        let xml = try #require(shipped["io.openthread.BorderRouter"], "introspect.xml has no io.openthread.BorderRouter")
        #expect(xml.methods["ActivateEphemeralKeyMode"] != nil && xml.properties["TelemetryData"] != nil)
        let sim = try #require(try await simulatorInterfaces()["io.openthread.BorderRouter"])
        for (name, method) in xml.methods {
            let simMethod = try #require(sim.methods[name], "the simulator lacks method \(name)")
            if name == "Attach" || !Self.retyped.contains(name) {
                #expect(simMethod == method, "method \(name)")
            }
        }
        for (name, property) in xml.properties {
            let simName = Self.renamed[name] ?? name
            let simProperty = try #require(sim.properties[simName], "the simulator lacks property \(simName) (XML \(name))")
            #expect(simProperty.access == property.access, "access of \(name)")
            if !Self.retyped.contains(name) {
                #expect(simProperty.type == property.type, "type of \(name)")
                #expect(simProperty.emitsChanged == property.emitsChanged, "EmitsChangedSignal of \(name)")
            }
        }
        #expect(Set(xml.signals.keys).isSubset(of: Set(sim.signals.keys)))
        #expect(xml.signals["Ready"] == sim.signals["Ready"])
        // Every deviation the table records is one the XML really has.
        #expect(xml.properties["LinkCounters"]?.type == "(uuuu)")
        #expect(xml.properties["ExternalRoutes"]?.type == "((ayy)qybb)")
        #expect(xml.properties["ActiveDatasetTlvs"]?.emitsChanged == "false")
        #expect(xml.methods["GetProperties"]?.outputs == "")
        #expect(xml.properties["PartitionId"] != nil && xml.properties["PartitionID"] == nil)
    }
}
