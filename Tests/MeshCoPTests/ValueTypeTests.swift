import Testing
@testable import MeshCoP

@Suite struct TimestampTests {
    @Test func vectors() throws {
        let one = try Timestamp(tlvValue: Vectors.bytes("0000000000010000"))
        #expect(one.seconds == 1)
        #expect(one.ticks == 0)
        #expect(!one.isAuthoritative)

        let nest = try Timestamp(tlvValue: Vectors.bytes("000062f2f82454e3"))
        #expect(nest.seconds == 1_660_090_404)
        #expect(nest.seconds == 0x62F2_F824)
        #expect(nest.ticks == 10865)
        #expect(nest.isAuthoritative)
        #expect(nest.tlvValue == Vectors.bytes("000062f2f82454e3"))
        #expect(Timestamp(seconds: 1_660_090_404, ticks: 10865, isAuthoritative: true) == nest)
    }

    @Test func otbrPendingTimestampConstruction() {
        // (unix_seconds << 16) | ((nsec * 32768 / 1e9 & 0x7fff) << 1), U = 0.
        let t = Timestamp(unixSeconds: 1_700_000_000, nanoseconds: 500_000_000)
        #expect(t?.rawValue == (1_700_000_000 << 16) | (16384 << 1))
        #expect(t?.ticks == 16384)
        #expect(t?.isAuthoritative == false)
    }

    @Test func rangesAreEnforced() {
        #expect(Timestamp(seconds: Timestamp.maximumSeconds, ticks: Timestamp.maximumTicks, isAuthoritative: true)?.rawValue == .max)
        #expect(Timestamp(seconds: Timestamp.maximumSeconds + 1) == nil)
        #expect(Timestamp(seconds: 0, ticks: 0x8000) == nil)
        #expect(throws: ValueDecodingError.wrongLength(7, expected: [8])) { try Timestamp(tlvValue: [0, 0, 0, 0, 0, 0, 0]) }
        #expect(Timestamp(seconds: 2)! > Timestamp(seconds: 1, ticks: 5, isAuthoritative: true)!)
        #expect(Timestamp(seconds: 1)!.description == "1 (ticks 0, not authoritative)")
    }
}

@Suite struct SecurityPolicyTests {
    @Test func defaultIsTodaysOpenThreadPolicy() {
        let p = SecurityPolicy()
        #expect(p.tlvValue == [0x02, 0xA0, 0xF7, 0xF8])
        #expect(p.obtainNetworkKeyEnabled && p.nativeCommissioningEnabled && p.routersEnabled)
        #expect(p.externalCommissioningEnabled && p.tobleLinkEnabled)
        #expect(!p.beaconsEnabled && !p.commercialCommissioningEnabled && !p.autonomousEnrollmentEnabled)
        #expect(!p.networkKeyProvisioningEnabled && !p.nonCCMRoutersEnabled)
        #expect(p.versionThresholdForRouting == 0)
        #expect(p.reservedBits == 0x38)
    }

    @Test func invertedBitsAreHandled() throws {
        var p = try SecurityPolicy(tlvValue: [0x02, 0xA0, 0xF0, 0xB8])
        #expect(p.commercialCommissioningEnabled)
        #expect(p.autonomousEnrollmentEnabled)
        #expect(p.networkKeyProvisioningEnabled)
        #expect(p.nonCCMRoutersEnabled)
        p.commercialCommissioningEnabled = false
        p.nonCCMRoutersEnabled = false
        #expect(p.tlvValue == [0x02, 0xA0, 0xF4, 0xF8])
    }

    @Test func olderOpenThreadBeaconsBit() throws {
        let p = try SecurityPolicy(tlvValue: [0x02, 0xA0, 0xFF, 0xF8])
        #expect(p.beaconsEnabled)
        #expect(p.enabledFeatureNames.contains("beacons"))
    }

    @Test func reservedBitsAndVersionThresholdSurviveReencoding() throws {
        for byte1 in 0...255 {
            let wire: [UInt8] = [0x12, 0x34, 0x5A, UInt8(byte1)]
            let p = try SecurityPolicy(tlvValue: wire)
            #expect(p.tlvValue == wire)
            #expect(p.versionThresholdForRouting == UInt8(byte1) & 7)
            #expect(p.reservedBits == UInt8(byte1) & 0x38)
        }
        var p = try SecurityPolicy(tlvValue: [0x02, 0xA0, 0xF7, 0x00])
        p.versionThresholdForRouting = 5
        p.tobleLinkEnabled = true
        #expect(p.flagByte1 == 0x85)
    }

    @Test func threeByteFormReadsDefaultsAndStaysThreeBytes() throws {
        var p = try SecurityPolicy(tlvValue: [0x00, 0x48, 0xF7])
        #expect(p.rotationTimeHours == 72)
        #expect(p.flagByte1 == nil)
        #expect(p.tobleLinkEnabled)
        #expect(!p.nonCCMRoutersEnabled)
        #expect(p.versionThresholdForRouting == 0)
        #expect(p.tlvValue == [0x00, 0x48, 0xF7])
        p.routersEnabled = false
        #expect(p.tlvValue == [0x00, 0x48, 0xD7])
        p.versionThresholdForRouting = 2
        #expect(p.tlvValue == [0x00, 0x48, 0xD7, 0xFA])
    }

    @Test func onlyThreeAndFourBytes() {
        for n in [0, 1, 2, 5, 16] {
            #expect(throws: ValueDecodingError.wrongLength(n, expected: [3, 4])) {
                try SecurityPolicy(tlvValue: [UInt8](repeating: 0, count: n))
            }
        }
    }
}

@Suite struct ChannelMaskTests {
    @Test func bitReversedPage0() throws {
        let m = try ChannelMask(tlvValue: Vectors.bytes("0004001fffe0"))
        #expect(m.entries.first?.channels == Array(11...26))
        #expect(m.entries.first?.openThreadMask == 0x07FF_F800)
        #expect(m.description == "page 0: 11–26")
        #expect(ChannelMask.Entry(page: 0, channels: 11...26)?.mask == [0x00, 0x1F, 0xFF, 0xE0])
        #expect(ChannelMask.Entry(page: 0, channels: [32]) == nil)
        let sparse = try ChannelMask(tlvValue: [0, 4, 0x00, 0x14, 0x80, 0x20])
        #expect(sparse.entries[0].channels == [11, 13, 16, 26])
        #expect(sparse.description == "page 0: 11, 13, 16, 26")
    }

    @Test func severalPagesAndUnknownPagesAreKept() throws {
        // page 0 channels 11–26; page 2 channels 1–10; page 9 (unknown) with a 2-byte mask; page 0x80 with none.
        let wire = Vectors.bytes("0004001fffe0" + "02047fe00000" + "0902c001" + "8000")
        let m = try ChannelMask(tlvValue: wire)
        #expect(m.entries.map(\.page) == [0, 2, 9, 0x80])
        #expect(m.entries[1].channels == Array(1...10))
        #expect(m.entries[2].channels == [0, 1, 15])
        #expect(m.entries[2].openThreadMask == nil)
        #expect(m.entries[3].channels.isEmpty)
        #expect(m.channels(onPage: 2) == Array(1...10))
        #expect(m.channels(onPage: 1) == nil)
        #expect(m.tlvValue == wire)
        #expect(m.description == "page 0: 11–26; page 2: 1–10; page 9: 0, 1, 15; page 128: none")
    }

    @Test func malformedMasks() {
        #expect(throws: ValueDecodingError.tooShort(0, minimum: 2)) { try ChannelMask(tlvValue: []) }
        #expect(throws: ValueDecodingError.truncatedChannelMaskEntry(offset: 6)) {
            try ChannelMask(tlvValue: Vectors.bytes("0004001fffe0" + "02"))
        }
        #expect(throws: ValueDecodingError.truncatedChannelMaskEntry(offset: 0)) {
            try ChannelMask(tlvValue: Vectors.bytes("0004001fff"))
        }
        #expect(throws: ValueDecodingError.channelMaskLength(page: 0, length: 3)) {
            try ChannelMask(tlvValue: Vectors.bytes("0003001fff"))
        }
        #expect(throws: ValueDecodingError.channelMaskLength(page: 2, length: 0)) { try ChannelMask(tlvValue: [2, 0]) }
    }
}

@Suite struct SimpleValueTests {
    @Test func channel() throws {
        let c = try Channel(tlvValue: [0, 0, 15])
        #expect(c == Channel(15))
        #expect(c.isSupported)
        #expect(try Channel(tlvValue: [2, 0x01, 0x02]) == Channel(258, page: 2))
        #expect(!Channel(26, page: 2).isSupported)
        #expect(!Channel(10).isSupported && !Channel(27).isSupported && Channel(11).isSupported && Channel(26).isSupported)
        #expect(Channel(300, page: 1).tlvValue == [1, 0x01, 0x2C])
        #expect(throws: ValueDecodingError.wrongLength(2, expected: [3])) { try Channel(tlvValue: [0, 15]) }
    }

    @Test func panID() {
        #expect(PANID("0x1234") == PANID(0x1234))
        #expect(PANID("4660") == PANID(0x1234))
        #expect(PANID("0x12345") == nil)
        #expect(PANID("x") == nil)
        #expect(PANID(0x00AB).description == "0x00ab")
        #expect(PANID(0xBEEF).tlvValue == [0xBE, 0xEF])
    }

    @Test func extendedPANIDAndPrefix() throws {
        #expect(ExtendedPANID("1111111122222222")?.bytes == [0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22])
        #expect(ExtendedPANID("11111111222222") == nil)
        #expect(ExtendedPANID(0xDEAD_BEEF_0000_0001).description == "deadbeef00000001")
        let p = try MeshLocalPrefix(tlvValue: Vectors.bytes("fdad70bfe5aa15dd"))
        #expect(p.description == "fdad:70bf:e5aa:15dd::/64")
        #expect(p.isUniqueLocal)
        #expect(MeshLocalPrefix("fdad:70bf:e5aa:15dd::/64") == p)
        #expect(MeshLocalPrefix("fdad:70bf:e5aa:15dd::") == p)
        #expect(MeshLocalPrefix("fd00::/64")?.description == "fd00::/64")
        #expect(MeshLocalPrefix("fd00:0:0:1::/64")?.description == "fd00:0:0:1::/64")
        #expect(MeshLocalPrefix("fd00::1/64") == nil)
        #expect(MeshLocalPrefix("fd00::/48") == nil)
        #expect(MeshLocalPrefix("fd00:::/64") == nil)
        #expect(MeshLocalPrefix("1:2:3:4:5:6:7:8:9") == nil)
        #expect(MeshLocalPrefix("2001:db8::")?.isUniqueLocal == false)
    }

    @Test func ipv6TextFollowsRFC5952() {
        func f(_ hex: String) -> String { IPv6Text.format(Vectors.bytes(hex)) }
        #expect(f("00000000000000000000000000000000") == "::")
        #expect(f("00000000000000000000000000000001") == "::1")
        #expect(f("20010db8000000000001000000000001") == "2001:db8::1:0:0:1")
        #expect(f("20010db8000100000001000100010001") == "2001:db8:1:0:1:1:1:1")
        #expect(f("fd20be89495a00010000000000000000") == "fd20:be89:495a:1::")
    }

    @Test func networkName() throws {
        #expect(NetworkName("") == nil)
        #expect(NetworkName("0123456789abcdef")?.tlvValue.count == 16)
        #expect(NetworkName("0123456789abcdefg") == nil)
        #expect(NetworkName("🐣🐥🐤🐣🐥") == nil) // 20 bytes
        #expect(throws: ValueDecodingError.tooShort(0, minimum: 1)) { try NetworkName(tlvValue: []) }
        #expect(throws: ValueDecodingError.invalidUTF8) { try NetworkName(tlvValue: [0xFF]) }
        #expect(try NetworkName(tlvValue: [0x41, 0x1B, 0x5B]).printable == "A\\u{1B}[")
    }

    @Test func delayTimer() throws {
        let d = try DelayTimer(tlvValue: [0x00, 0x04, 0x93, 0xE0])
        #expect(d.milliseconds == 300_000)
        #expect(d.duration == .seconds(300))
        #expect(d.tlvValue == [0x00, 0x04, 0x93, 0xE0])
    }

    @Test func tlvTypeNames() {
        #expect(TLVType.networkName.description == "3 (Network Name)")
        #expect(TLVType(200).description == "200 (unknown)")
        #expect(TLVType.wakeUpChannel.rawValue == 74)
        #expect(TLVType(53).name == "Channel Mask")
    }
}
