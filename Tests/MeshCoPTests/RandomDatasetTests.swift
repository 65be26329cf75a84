import Testing
@testable import MeshCoP

@Suite struct RandomDatasetTests {
    @Test func randomDatasetsAreCompleteAndValid() throws {
        for _ in 0..<200 {
            let d = try OperationalDataset.random()
            #expect(d.validate(as: .active).isEmpty, "\(d.validate(as: .active))")
            #expect(d.tlvs.count == 10)
            #expect(d.activeTimestamp == Timestamp(seconds: 1))
            #expect(d.channelMask == .allPage0)
            #expect(d.securityPolicy?.tlvValue == [0x02, 0xA0, 0xF7, 0xF8])
            let pan = try #require(d.panID)
            #expect(pan != .broadcast)
            #expect(d.networkName?.rawValue == "OpenThread-" + String(pan.description.dropFirst(2)))
            let prefix = try #require(d.meshLocalPrefix)
            #expect(prefix.bytes[0] == 0xFD && prefix.bytes[6] == 0 && prefix.bytes[7] == 0)
            #expect(Channel.page0Channels.contains(try #require(d.channel).number))
            #expect(try OperationalDataset(bytes: d.encoded()) == d)
        }
    }

    @Test func twoRandomDatasetsDiffer() throws {
        let a = try OperationalDataset.random(), b = try OperationalDataset.random()
        #expect(a.networkKey != b.networkKey)
        #expect(a.pskc != b.pskc)
        #expect(a.extendedPANID != b.extendedPANID)
        #expect(a.meshLocalPrefix != b.meshLocalPrefix)
        #expect(a.networkKey != nil && a.pskc != nil)
    }

    @Test func channelsCoverTheBand() throws {
        var channels: Set<UInt16> = []
        for _ in 0..<400 { channels.insert(try OperationalDataset.random().channel!.number) }
        #expect(channels == Set(11...26))
    }

    @Test func givenValuesAreUsed() throws {
        let name = try #require(NetworkName("Home")), prefix = try #require(MeshLocalPrefix("fd11:22:33::/64"))
        let d = try OperationalDataset.random(
            name: name, channel: Channel(25), panID: PANID(0xBEEF), extendedPANID: ExtendedPANID(42),
            meshLocalPrefix: prefix)
        #expect(d.networkName == name)
        #expect(d.channel == Channel(25))
        #expect(d.panID == PANID(0xBEEF))
        #expect(d.extendedPANID == ExtendedPANID(42))
        #expect(d.meshLocalPrefix == prefix)
        #expect(d.isValid())
        #expect(try OperationalDataset.random(panID: PANID(0x00AB)).networkName?.rawValue == "OpenThread-00ab")
    }
}
