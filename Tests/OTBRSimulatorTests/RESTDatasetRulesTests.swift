import MeshCoP
import TBRFoundation
import Testing

@testable import OTBRSimulator

/// The dataset rules of the REST API without a server: hex as ot-br-posix reads it, a new network as
/// OpenThread makes it, the merge of `otDatasetUpdateTlvs`, and the JSON both ways.
@Suite struct RESTDatasetRulesTests {
    @Test func hexIsReadAsOtbrReadsIt() {
        #expect(DatasetRules.otbrHex("0A0b", maximumBytes: 254) == [0x0A, 0x0B])
        #expect(DatasetRules.otbrHex("abc", maximumBytes: 254) == [0x0A, 0xBC], "an odd count: the first digit is a byte")
        #expect(DatasetRules.otbrHex("", maximumBytes: 254) == [])
        #expect(DatasetRules.otbrHex("0a 0b", maximumBytes: 254) == nil)
        #expect(DatasetRules.otbrHex("0x0a", maximumBytes: 254) == nil)
        #expect(DatasetRules.otbrHex(String(repeating: "0", count: 509), maximumBytes: 254) == nil)
        #expect(DatasetRules.otbrHex(String(repeating: "0", count: 508), maximumBytes: 254)?.count == 254)
    }

    @Test func aNewNetworkHasAWakeUpChannelAfterItsChannel() throws {
        let tlvs = try DatasetRules.newNetwork()
        let d = try OperationalDataset(bytes: tlvs)
        #expect(d.tlvs.map(\.type) == [
            .activeTimestamp, .channel, .wakeUpChannel, .channelMask, .extendedPANID, .meshLocalPrefix, .networkKey,
            .networkName, .panID, .pskc, .securityPolicy,
        ])
        #expect(d.isValid(as: .active))
        #expect(d.wakeUpChannel.map { $0.page == 0 && Channel.page0Channels.contains($0.number) } == true)
        #expect(d.activeTimestamp == Timestamp(seconds: 1))
    }

    @Test func anUpdateMovesEachWrittenComponentToTheEndInOpenThreadsOrder() throws {
        let base = try Hex.decode("0e0800000000000100004a0300000f0102abcd")
        var update = OperationalDataset()
        update.panID = PANID(0x1234)
        update.set(.other(type: TLVType(0xB0), value: [1]))  // not a component: dropped
        update.activeTimestamp = Timestamp(seconds: 2)
        let merged = try #require(DatasetRules.update(base, with: update))
        #expect(Hex.encode(merged) == "4a0300000f" + "0e080000000000020000" + "01021234")
        #expect(DatasetRules.update(base, with: OperationalDataset()) == base, "nothing written, nothing moved")
        #expect(DatasetRules.update(Array(repeating: 0xB1, count: 1) + [250] + Array(repeating: 0, count: 250), with: update) == nil,
                "more than 254 bytes: NoBufs")
    }

    @Test func datasetJSONRoundTripsItsComponents() throws {
        var d = try OperationalDataset(bytes: try DatasetRules.newNetwork())
        d.pendingTimestamp = Timestamp(seconds: 1_700_000_000, ticks: 5, isAuthoritative: true)
        d.delayTimer = DelayTimer(milliseconds: 30_000)
        let json = RESTDatasetJSON.pending(d)
        let back = try #require(RESTDatasetJSON.parsePending(try JSON(parsing: json.serialized)))
        var expected = DatasetRules.inComponentOrder(d)
        expected.wakeUpChannel = nil  // not part of the JSON
        #expect(back == expected)
        #expect(RESTDatasetJSON.parseActive(["pskc": "00"]) == nil)
        #expect(RESTDatasetJSON.parseActive(["networkName": "seventeen bytes!!"]) == nil)
        #expect(RESTDatasetJSON.parseActive(["networkKey": 5, "panId": "x"]) == OperationalDataset(), "wrong types are ignored")
        #expect(RESTDatasetJSON.parseActive(["activeTimestamp": ["seconds": "1"]]) == nil)
        #expect(RESTDatasetJSON.parseActive(["meshLocalPrefix": "fd00:1:2:3::/64"])?.meshLocalPrefix == MeshLocalPrefix("fd00:1:2:3::"))
        let policy = try #require(RESTDatasetJSON.parseActive(["securityPolicy": ["rotationTime": 10, "routers": true]])?.securityPolicy)
        #expect(policy.tlvValue == [0x00, 0x0A, 0x27, 0x78], "absent flags are off; the inverted ones set their bits")
    }
}
