import Testing
@testable import MeshCoP

@Suite struct DatasetValidationTests {
    @Test func datasetAIsACompleteActiveDatasetButNotPending() throws {
        #expect(OperationalDataset.validate(bytes: Vectors.datasetA, as: .active).isEmpty)
        let pending = OperationalDataset.validate(bytes: Vectors.datasetA, as: .pending)
        #expect(pending.map(\.tlvType) == [.pendingTimestamp, .delayTimer])
        #expect(pending.allSatisfy { $0.offset == nil && $0.reason == .missing(.pending) })
        #expect(pending.first?.description == "TLV 51 (Pending Timestamp) is missing: a complete Pending dataset needs it")

        var d = try OperationalDataset(bytes: Vectors.datasetA)
        d.pendingTimestamp = Timestamp(seconds: 2)
        d.delayTimer = DelayTimer(milliseconds: 300_000)
        #expect(d.isValid(as: .pending))
    }

    @Test func emptyDatasetMissesAllTenRequiredTLVs() {
        let problems = OperationalDataset.validate(bytes: [], as: .active)
        #expect(Set(problems.compactMap(\.tlvType)) == Set(DatasetKind.active.requiredTLVTypes))
        #expect(problems.count == 10)
        #expect(OperationalDataset.validate(bytes: [], as: nil).isEmpty)
    }

    @Test func everyProblemIsReportedWithItsOffset() {
        // Channel 27, PAN ID 0xFFFF, prefix 2001:db8::/64, a 17-byte name, a duplicate PAN ID, a short key;
        // no Active Timestamp, no Channel Mask, no PSKc, no Security Policy.
        let bytes = Vectors.tlv(0, [0, 0, 27])                                  // 0
            + Vectors.tlv(1, [0xFF, 0xFF])                                         // 5
            + Vectors.tlv(7, Vectors.bytes("20010db800000000"))                    // 9
            + Vectors.tlv(3, Array("ABCDEFGHIJKLMNOPQ".utf8))                      // 19
            + Vectors.tlv(2, Vectors.bytes("1111111122222222"))                    // 38
            + Vectors.tlv(1, [0x12, 0x34])                                         // 48
            + Vectors.tlv(5, [0x00, 0x11])                                         // 52
        let problems = OperationalDataset.validate(bytes: bytes, as: .active)
        let located = problems.filter { $0.offset != nil }
        #expect(located.map(\.offset) == [0, 5, 9, 19, 48, 52])
        #expect(located.map(\.tlvType) == [.channel, .panID, .meshLocalPrefix, .networkName, .panID, .networkKey])
        #expect(located.map(\.description) == [
            "TLV 0 (Channel) at offset 0: channel 27 is outside 11–26 (page 0)",
            "TLV 1 (PAN ID) at offset 5: PAN ID 0xffff is the broadcast PAN ID and cannot identify a network",
            "TLV 7 (Mesh-Local Prefix) at offset 9: mesh-local prefix 2001:db8::/64 is not in fd00::/8",
            "TLV 3 (Network Name) at offset 19: length 17 exceeds 16",
            "TLV 1 (PAN ID) at offset 48: duplicate of the TLV at offset 5 (each type may appear once)",
            "TLV 5 (Network Key) at offset 52: length 2 is not 16",
        ])
        // Malformed TLVs (name, key) are not also reported missing.
        let missing = problems.filter { $0.offset == nil }.compactMap(\.tlvType)
        #expect(missing == [.pskc, .securityPolicy, .activeTimestamp, .channelMask])
    }

    @Test func scanContinuesPastMalformedValuesAndStopsAtBrokenFraming() {
        let bytes = Vectors.tlv(1, [1]) + Vectors.tlv(0, [1, 0, 11]) + [5, 16, 0, 1]
        let problems = OperationalDataset.validate(bytes: bytes, as: nil)
        #expect(problems.map(\.offset) == [0, 3, 8])
        #expect(problems[1].description == "TLV 0 (Channel) at offset 3: channel page 1 is not supported (only page 0, 2.4 GHz)")
        #expect(problems[2].description
            == "TLV 5 (Network Key) at offset 8: length 16 runs past the end of the data (only 2 bytes left)")
    }

    @Test func extendedTLVIsSkippedSoLaterProblemsAreFound() {
        let bytes = [200, 0xFF, 0x00, 0x02, 0xAA, 0xBB] + Vectors.tlv(0, [0, 0, 10])
        let problems = OperationalDataset.validate(bytes: bytes, as: nil)
        #expect(problems.map(\.offset) == [0, 6])
        #expect(problems[0].reason == .malformed(.extendedLength))
        #expect(problems[1].reason == .unsupportedChannel(Channel(10)))
    }

    @Test func oversizeIsReportedAfterTheTLVProblems() {
        let bytes = Vectors.datasetA + Vectors.tlv(200, [UInt8](repeating: 0, count: 150))
        let problems = OperationalDataset.validate(bytes: bytes, as: .active)
        #expect(problems.count == 1)
        #expect(problems.first?.reason == .malformed(.tooLong(257)))
        #expect(problems.first?.offset == 254)
    }

    @Test func wakeUpChannelIsChecked() throws {
        var d = try OperationalDataset(bytes: Vectors.datasetA)
        d.wakeUpChannel = Channel(30)
        let problems = d.validate(as: .active)
        #expect(problems.count == 1)
        #expect(problems.first?.tlvType == .wakeUpChannel)
        #expect(problems.first?.offset == 105)
    }

    @Test func typedDatasetValidatesAtItsEncodingOffsets() throws {
        var d = try OperationalDataset(bytes: Vectors.datasetA)
        d.panID = .broadcast
        let problems = d.validate()
        #expect(problems == [DatasetProblem(tlvType: .panID, offset: 77, reason: .broadcastPANID)])
        // Without a kind, only what is present is checked; the broadcast PAN ID is a complete-dataset rule.
        #expect(d.validate(as: nil).isEmpty)
    }
}
