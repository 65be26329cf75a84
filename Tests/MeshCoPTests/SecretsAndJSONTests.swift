import Foundation
import Testing
@testable import MeshCoP

@Suite struct SecretsAndJSONTests {
    private func json(_ value: some Encodable, reveal: Bool? = nil) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let reveal { encoder.userInfo[.revealSecrets] = reveal }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func secretsAreRedactedInTextAndDump() throws {
        let d = try OperationalDataset(bytes: Vectors.datasetA)
        let key = try #require(d.networkKey), pskc = try #require(d.pskc)
        for text in [key.description, String(describing: key), pskc.description, "\(pskc)"] {
            #expect(text == "<redacted>")
        }
        #expect(String(reflecting: key) == "NetworkKey(<redacted>)")
        var dumped = ""
        dump(d, to: &dumped)
        #expect(!dumped.contains("00112233"))
        #expect(!dumped.contains("445f2b5c"))
        #expect(!dumped.contains("17, 34, 51")) // the key bytes 0x11 0x22 0x33 in decimal
        #expect(dumped.contains("<redacted>"))
        #expect(!d.description.contains("0011"))
        #expect(d.description == "OperationalDataset(\"OpenThreadDemo\", channel 15 (page 0), PAN ID 0x1234, XPAN 1111111122222222, 10 TLVs)")
    }

    @Test func datasetJSONRedactsUnlessAsked() throws {
        let d = try OperationalDataset(bytes: Vectors.datasetA + Vectors.bytes("bd03abcdef"))
        let redacted = try json(d)
        #expect(!redacted.contains("00112233445566778899aabbccddeeff"))
        #expect(!redacted.contains("445f2b5ca6f2a93a55ce570a70efeecb"))
        let o = try object(redacted)
        #expect(o["networkKey"] as? String == "<redacted>")
        #expect(o["pskc"] as? String == "<redacted>")
        #expect(o["networkName"] as? String == "OpenThreadDemo")
        #expect(o["extPanId"] as? String == "1111111122222222")
        #expect(o["panId"] as? Int == 0x1234)
        #expect(o["meshLocalPrefix"] as? String == "fdad:70bf:e5aa:15dd::/64")
        let ts = try #require(o["activeTimestamp"] as? [String: Any])
        #expect(ts["seconds"] as? Int == 1 && ts["ticks"] as? Int == 0 && ts["authoritative"] as? Bool == false)
        let channel = try #require(o["channel"] as? [String: Any])
        #expect(channel["page"] as? Int == 0 && channel["number"] as? Int == 15)
        let mask = try #require(o["channelMask"] as? [[String: Any]])
        #expect(mask.first?["page"] as? Int == 0)
        #expect(mask.first?["channels"] as? [Int] == Array(11...26))
        let policy = try #require(o["securityPolicy"] as? [String: Any])
        #expect(policy["rotationTimeHours"] as? Int == 672)
        #expect(policy["obtainNetworkKey"] as? Bool == true)
        #expect(policy["commercialCommissioning"] as? Bool == false)
        #expect(policy["tobleLink"] as? Bool == true)
        #expect(policy["nonCcmRouters"] as? Bool == false)
        #expect(policy["versionThresholdForRouting"] as? Int == 0)
        let others = try #require(o["otherTLVs"] as? [[String: Any]])
        #expect(others.first?["type"] as? Int == 0xBD && others.first?["value"] as? String == "abcdef")

        #expect(try json(d, reveal: false) == redacted)
        let revealed = try object(try json(d, reveal: true))
        #expect(revealed["networkKey"] as? String == "00112233445566778899aabbccddeeff")
        #expect(revealed["pskc"] as? String == "445f2b5ca6f2a93a55ce570a70efeecb")
    }

    @Test func revealedJSONDecodesToTheSameDataset() throws {
        let d = try OperationalDataset(bytes: Vectors.datasetA + Vectors.bytes("bd03abcdef"))
        let decoded = try JSONDecoder().decode(OperationalDataset.self, from: Data(try json(d, reveal: true).utf8))
        #expect(decoded == d)
        #expect(decoded.encoded() == Vectors.datasetA + Vectors.bytes("bd03abcdef"))
    }

    @Test func redactedJSONDoesNotDecode() throws {
        let d = try OperationalDataset(bytes: Vectors.datasetA)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(OperationalDataset.self, from: Data(try json(d).utf8))
        }
    }

    @Test func jsonInputIsValidated() {
        let badName = #"{"networkName": "ABCDEFGHIJKLMNOPQ"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OperationalDataset.self, from: Data(badName.utf8)) }
        let panAsString = #"{"panId": "0xbeef", "channel": {"number": 20}}"#
        let d = try? JSONDecoder().decode(OperationalDataset.self, from: Data(panAsString.utf8))
        #expect(d?.panID == PANID(0xBEEF))
        #expect(d?.channel == Channel(20))
        let badVR = #"{"securityPolicy": {"versionThresholdForRouting": 9}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OperationalDataset.self, from: Data(badVR.utf8)) }
    }

    @Test func otbrRESTActiveDatasetJSONDecodes() throws {
        // The ActiveDataset form of OTBR's REST API (camelCase, since ot-br-posix PR #2514) for dataset A.
        let rest = #"""
            {"activeTimestamp": {"seconds": 1, "ticks": 0, "authoritative": false},
             "networkKey": "00112233445566778899aabbccddeeff", "networkName": "OpenThreadDemo",
             "extPanId": "1111111122222222", "meshLocalPrefix": "fdad:70bf:e5aa:15dd::/64", "panId": 4660,
             "channel": 15, "pskc": "445f2b5ca6f2a93a55ce570a70efeecb", "channelMask": 134215680,
             "securityPolicy": {"rotationTime": 672, "obtainNetworkKey": true, "nativeCommissioning": true,
                                "routers": true, "externalCommissioning": true, "commercialCommissioning": false,
                                "autonomousEnrollment": false, "networkKeyProvisioning": false, "tobleLink": true,
                                "nonCcmRouters": false}}
            """#
        let d = try JSONDecoder().decode(OperationalDataset.self, from: Data(rest.utf8))
        #expect(d.encoded() == Vectors.datasetA)
    }

    @Test func decodingErrorsEncodeToo() throws {
        let error = try #require(throws: DatasetDecodingError.self) { try OperationalDataset(bytes: Vectors.tlv(3, [])) }
        let o = try object(try json(error))
        #expect(o["tlvType"] as? Int == 3 && o["tlvName"] as? String == "Network Name" && o["offset"] as? Int == 0)
        #expect(o["message"] as? String == "TLV 3 (Network Name) at offset 0: the value is empty (at least 1 byte needed)")
    }

    @Test func securityPolicyJSONRoundTripsFlags() throws {
        var p = SecurityPolicy()
        p.commercialCommissioningEnabled = true
        p.routersEnabled = false
        p.versionThresholdForRouting = 3
        let back = try JSONDecoder().decode(SecurityPolicy.self, from: Data(try json(p).utf8))
        #expect(back == p)
    }

    @Test func ephemeralKeyJSONAndTextAreRedacted() throws {
        let k = try EphemeralKey(validating: "307318421")
        #expect(k.description == "<redacted>")
        #expect(try json([k]) == #"["<redacted>"]"#)
        #expect(try json([k], reveal: true) == #"["307318421"]"#)
        let back = try JSONDecoder().decode([EphemeralKey].self, from: Data(#"["307318421"]"#.utf8))
        #expect(back == [k])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([EphemeralKey].self, from: Data(#"["307318422"]"#.utf8)) }
    }

    @Test func problemsEncodeWithTheirSentence() throws {
        let problems = OperationalDataset.validate(bytes: Vectors.tlv(1, [0xFF, 0xFF]), as: .active)
        let text = try json(problems)
        #expect(text.contains(#""message":"TLV 1 (PAN ID) at offset 0: PAN ID 0xffff is the broadcast PAN ID and cannot identify a network""#))
        #expect(text.contains(#""tlvName":"Network Key""#))
    }
}

@Suite struct RenderTests {
    @Test func datasetATable() throws {
        let d = try OperationalDataset(bytes: Vectors.datasetA + Vectors.bytes("bd03abcdef"))
        #expect(d.render() == """
            Active Timestamp   1 (ticks 0, not authoritative)
            Channel            15 (page 0)
            Channel Mask       page 0: 11–26
            Extended PAN ID    1111111122222222
            Mesh-Local Prefix  fdad:70bf:e5aa:15dd::/64
            Network Key        <redacted>
            Network Name       OpenThreadDemo
            PAN ID             0x1234
            PSKc               <redacted>
            Security Policy    672 h; obtain network key, native commissioning, routers, external commissioning, ToBLE link; version threshold 0
            TLV 189            abcdef
            """)
        let revealed = d.render(revealSecrets: true)
        #expect(revealed.contains("Network Key        00112233445566778899aabbccddeeff"))
        #expect(revealed.contains("PSKc               445f2b5ca6f2a93a55ce570a70efeecb"))
    }

    @Test func pendingFieldsAndEscapedNames() throws {
        var d = OperationalDataset()
        d.set(.other(type: .networkKeySequenceCounter, value: [0, 0, 0, 1]))
        d.delayTimer = DelayTimer(milliseconds: 300_000)
        d.pendingTimestamp = Timestamp(seconds: 10, ticks: 3, isAuthoritative: true)
        d.networkName = NetworkName("a\u{1B}[2Jb")
        #expect(d.render() == """
            Pending Timestamp  10 (ticks 3, authoritative)
            Delay Timer        300000 ms
            Network Name       a\\u{1B}[2Jb
            Network Key Sequence Counter  00000001
            """)
    }
}
