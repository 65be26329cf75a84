import Foundation
import Testing
@testable import MeshCoP

@Suite struct StateBitmapTests {
    @Test func haVectors() throws {
        let a = try StateBitmap(txtValue: [0x00, 0x00, 0x01, 0xB1])
        #expect(a.connectionMode == .pskc)
        #expect(a.interfaceStatus == .active)
        #expect(a.availability == .high)
        #expect(a.isBBRActive && a.isBBRPrimary)
        #expect(a.threadRole == .disabledOrDetached)
        #expect(!a.isEPSKcSupported)
        #expect(a.unknownBits == 0)

        let b = StateBitmap(rawValue: 0xB1)
        #expect(b.isBBRActive && !b.isBBRPrimary)
        let c = StateBitmap(rawValue: 0x31)
        #expect(c.connectionMode == .pskc && c.interfaceStatus == .active && c.availability == .high)
        #expect(!c.isBBRActive && !c.isBBRPrimary)
        #expect(StateBitmap(rawValue: 0x831).isEPSKcSupported)

        let leader = StateBitmap(rawValue: 0xE31)
        #expect(leader.threadRole == .leader && leader.isEPSKcSupported && !leader.isBBRActive)
        #expect(StateBitmap(connectionMode: .pskc, interfaceStatus: .active, availability: .high,
                            threadRole: .leader, isEPSKcSupported: true) == leader)
        #expect(StateBitmap(connectionMode: .pskc, interfaceStatus: .active, availability: .high,
                            isBBRActive: true, isBBRPrimary: true).rawValue == 0x1B1)
    }

    @Test func unknownValuesAndHighBitsAreKept() {
        var s = StateBitmap(rawValue: 0xABCD_E000 | 0x7 | 0x18 | 0x60)
        #expect(s.connectionMode == .other(7))
        #expect(s.interfaceStatus == .other(3))
        #expect(s.availability == .other(3))
        #expect(s.unknownBits == 0xABCD_E000)
        s.connectionMode = .pskc
        s.threadRole = .router
        #expect(s.rawValue == 0xABCD_E000 | 0x1 | 0x18 | 0x60 | 0x400)
        #expect(s.txtValue == [0xAB, 0xCD, 0xE4, 0x79])
    }

    @Test func description() {
        #expect(StateBitmap(rawValue: 0x1B1).description
            == "0x000001b1: connection pskc, interface active, availability high, BBR active, BBR primary, role disabledOrDetached")
    }
}

@Suite struct TXTRecordTests {
    /// The HA OTBR record of the vectors, with OTBR's vendor entries in front.
    static let haEntries: [(key: String, value: [UInt8])] = [
        ("vn", Array("HomeAssistant".utf8)), ("mn", Array("OpenThreadBorderRouter".utf8)),
        ("rv", Array("1".utf8)), ("tv", Array("1.3.0".utf8)),
        ("xa", Vectors.bytes("aeeb2f594b570bbf")), ("xp", Vectors.bytes("e60fc7c186212ce5")),
        ("id", Vectors.bytes("230c6a1ac57f6f4be262acf32e5ef52c")), ("sb", Vectors.bytes("000001b1")),
        ("nn", Array("OpenThread HA".utf8)), ("at", Vectors.bytes("0000000000010000")),
        ("pt", Vectors.bytes("8f06517e")), ("sq", [0x33]), ("bb", Vectors.bytes("f0bf")),
        ("dn", Array("DefaultDomain".utf8)), ("omr", Vectors.bytes("40fd20be89495a0001")),
        ("vo", [0x00, 0x11, 0x22]), ("vxyz", [1, 2]), ("zz", [9]),
    ]

    static func wire(_ entries: [(key: String, value: [UInt8])]) -> [UInt8] {
        entries.flatMap { e -> [UInt8] in
            let s = Array(e.key.utf8) + [UInt8(ascii: "=")] + e.value
            return [UInt8(s.count)] + s
        }
    }

    static func checkHA(_ r: MeshCoPTXTRecord) {
        #expect(r.problems.isEmpty)
        #expect(r.recordVersion == "1")
        #expect(r.threadVersion == "1.3.0")
        #expect(r.extendedAddress == ExtendedAddress("aeeb2f594b570bbf"))
        #expect(r.extendedAddress?.instanceNameSuffix == "0BBF")
        #expect(r.extendedPANID == ExtendedPANID("e60fc7c186212ce5"))
        #expect(r.borderAgentID?.description == "230c6a1ac57f6f4be262acf32e5ef52c")
        #expect(r.stateBitmap == StateBitmap(rawValue: 0x1B1))
        #expect(r.networkName?.rawValue == "OpenThread HA")
        #expect(r.activeTimestamp == Timestamp(seconds: 1))
        #expect(r.partitionID == 0x8F06_517E)
        #expect(r.bbrSequenceNumber == 0x33)
        #expect(r.bbrPort == 61631)
        #expect(r.domainName == "DefaultDomain")
        #expect(r.omrPrefix?.description == "fd20:be89:495a:1::/64")
        #expect(r.omrPrefix?.length == 64)
        #expect(r.vendorName == "HomeAssistant")
        #expect(r.modelName == "OpenThreadBorderRouter")
        #expect(r.vendorOUI == 0x001122)
        #expect(r.vendorEntries == [TXTEntry(key: "vxyz", value: [1, 2])])
        #expect(r.unknownEntries == [TXTEntry(key: "zz", value: [9])])
        #expect(r.entries.count == haEntries.count)
    }

    @Test func homeAssistantOTBRRecordFromEntries() {
        Self.checkHA(MeshCoPTXTRecord(entries: Self.haEntries))
    }

    @Test func homeAssistantOTBRRecordFromWireFormat() {
        let wire = Self.wire(Self.haEntries)
        let r = MeshCoPTXTRecord(wireFormat: wire)
        Self.checkHA(r)
        #expect(r.wireFormat == wire)
    }

    @Test func malformedValuesAreReportedWithoutLosingOtherKeys() {
        let r = MeshCoPTXTRecord(entries: [
            ("sb", [0x01, 0xB1]), ("xp", Vectors.bytes("e60fc7c186212ce5")), ("nn", [0xFF, 0xFE]),
            ("omr", [0x40, 0xFD]), ("at", [1]), ("XP", [0]), ("", [1]), ("a=b", [2]), ("tv", Array("1.4.0".utf8)),
            ("omr", Vectors.bytes("40fd20be89495a0001")),
        ])
        #expect(r.extendedPANID == ExtendedPANID("e60fc7c186212ce5"))
        #expect(r.threadVersion == "1.4.0")
        #expect(r.stateBitmap == nil && r.networkName == nil && r.omrPrefix == nil && r.activeTimestamp == nil)
        #expect(r.problems.map(\.description) == [
            "TXT key \"sb\": length 2 is not 4",
            "TXT key \"nn\": the value is not valid UTF-8",
            "TXT key \"omr\": length 2 is not 9",
            "TXT key \"at\": length 1 is not 8",
            "TXT key \"XP\": the key appears again; only its first value is used",
            "TXT key \"\": the key is not printable ASCII without '='",
            "TXT key \"a=b\": the key is not printable ASCII without '='",
            "TXT key \"omr\": the key appears again; only its first value is used",
        ])
    }

    @Test func wireFormatEdgeCases() {
        // Empty strings are skipped, a key without "=" has an empty value, "=" in the value is kept,
        // and a string cut short is a problem that keeps what came before.
        let wire: [UInt8] = [0] + [2] + Array("rv".utf8) + [6] + Array("vk=a=b".utf8) + [9] + Array("tv=1".utf8)
        let r = MeshCoPTXTRecord(wireFormat: wire)
        #expect(r.entries == [TXTEntry(key: "rv", value: []), TXTEntry(key: "vk", text: "a=b")])
        #expect(r.recordVersion == "")
        #expect(r.problems == [TXTProblem(key: nil, reason: .truncatedString(offset: 11, length: 9, available: 4))])
        #expect(r.problems.first?.description == "TXT data: the string at offset 11 claims 9 bytes but only 4 remain")
        #expect(MeshCoPTXTRecord(wireFormat: []).entries.isEmpty)
        // A 255-byte key without "=" (found by fuzzing) fits again when written back.
        let longKey = [255] + [UInt8](repeating: 0x61, count: 255)
        let long = MeshCoPTXTRecord(wireFormat: longKey)
        #expect(long.entries.count == 1)
        #expect(long.wireFormat == longKey)
        #expect(MeshCoPTXTRecord(entries: [TXTEntry(key: "rv", value: [])]).wireFormat == [2] + Array("rv".utf8))
        // The string "=" (empty key, empty value; also found by fuzzing) is written back as "=".
        let equalsOnly = MeshCoPTXTRecord(wireFormat: [1, UInt8(ascii: "=")])
        #expect(equalsOnly.entries == [TXTEntry(key: "", value: [])])
        #expect(equalsOnly.problems.first?.reason == .invalidKey)
        #expect(equalsOnly.wireFormat == [1, UInt8(ascii: "=")])
        #expect(MeshCoPTXTRecord(wireFormat: [3, 0xFF, 0x3D, 0x41]).problems.first?.reason == .invalidKey)
    }

    @Test func truncationAtEveryOffsetKeepsTheCompleteEntries() {
        let wire = Self.wire(Self.haEntries)
        var boundaries: [Int] = [0]
        for e in Self.haEntries { boundaries.append(boundaries.last! + 2 + e.key.utf8.count + e.value.count) }
        for cut in 0...wire.count {
            let r = MeshCoPTXTRecord(wireFormat: Array(wire[0..<cut]))
            let complete = boundaries.filter { $0 <= cut }.count - 1
            #expect(r.entries.count == complete, "cut \(cut)")
            #expect(r.problems.count == (boundaries.contains(cut) ? 0 : 1), "cut \(cut)")
        }
    }

    @Test func jsonForm() throws {
        let r = MeshCoPTXTRecord(entries: Self.haEntries)
        let encoder = JSONEncoder()
        let data = try encoder.encode(r)
        let o = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(o["extPanId"] as? String == "e60fc7c186212ce5")
        #expect(o["borderAgentId"] as? String == "230c6a1ac57f6f4be262acf32e5ef52c")
        #expect(o["bbrPort"] as? Int == 61631)
        #expect(o["omrPrefix"] as? String == "fd20:be89:495a:1::/64")
        #expect(o["vendorOui"] as? String == "0x001122")
        let sb = try #require(o["stateBitmap"] as? [String: Any])
        #expect(sb["raw"] as? String == "0x000001b1")
        #expect(sb["connectionMode"] as? String == "pskc")
        #expect(sb["interfaceStatus"] as? String == "active")
        #expect(sb["availability"] as? String == "high")
        #expect(sb["bbrActive"] as? Bool == true && sb["bbrPrimary"] as? Bool == true)
        #expect(sb["threadRole"] as? String == "disabledOrDetached")
        #expect(sb["epskcSupported"] as? Bool == false)
        let back = try JSONDecoder().decode(MeshCoPTXTRecord.self, from: data)
        #expect(back == r)
    }
}
