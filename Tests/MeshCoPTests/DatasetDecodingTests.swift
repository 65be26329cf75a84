import Testing
import TBRFoundation
@testable import MeshCoP

@Suite struct DatasetDecodingTests {
    @Test func datasetADecodesToTheListedValues() throws {
        let d = try OperationalDataset(bytes: Vectors.datasetA)
        #expect(d.tlvs.count == 10)
        #expect(d.activeTimestamp?.seconds == 1)
        #expect(d.activeTimestamp?.ticks == 0)
        #expect(d.activeTimestamp?.isAuthoritative == false)
        #expect(d.channel == Channel(15, page: 0))
        #expect(d.channelMask?.entries.count == 1)
        #expect(d.channelMask?.entries.first?.page == 0)
        #expect(d.channelMask?.entries.first?.mask == [0x00, 0x1F, 0xFF, 0xE0])
        #expect(d.channelMask?.entries.first?.openThreadMask == 0x07FF_F800)
        #expect(d.channelMask?.channels(onPage: 0) == Array(11...26))
        #expect(d.extendedPANID == ExtendedPANID(0x1111_1111_2222_2222))
        #expect(d.meshLocalPrefix?.description == "fdad:70bf:e5aa:15dd::/64")
        #expect(d.networkKey?.hexString == "00112233445566778899aabbccddeeff")
        #expect(d.networkName?.rawValue == "OpenThreadDemo")
        #expect(d.panID == PANID(0x1234))
        #expect(d.pskc?.hexString == "445f2b5ca6f2a93a55ce570a70efeecb")
        let policy = try #require(d.securityPolicy)
        #expect(policy.rotationTimeHours == 672)
        #expect(policy.flagByte0 == 0xF7)
        #expect(policy.flagByte1 == 0xF8)
        #expect(d.otherTLVs.isEmpty)
    }

    @Test func datasetAKeepsWireOrderAndReencodesByteExact() throws {
        let d = try OperationalDataset(bytes: Vectors.datasetA)
        #expect(d.tlvs.map(\.type.rawValue) == Vectors.datasetALayout.map(\.type))
        #expect(d.encoded() == Vectors.datasetA)
        #expect(d.hexString == Vectors.datasetAHex)
        #expect(try OperationalDataset(hex: Vectors.datasetAHex.uppercased()) == d)
    }

    @Test(arguments: [
        ("1111111122222233", Array("HomeAssistant!".utf8)),
        ("1111111122222244", Vectors.bytes("7ef09f90a3f09f90a5f09f90a47e")),
    ])
    func utf8NameVariantsDecodeAndRoundTrip(xpan: String, name: [UInt8]) throws {
        let bytes = Vectors.datasetA(extendedPANID: xpan, nameUTF8: name)
        let d = try OperationalDataset(bytes: bytes)
        #expect(d.extendedPANID == ExtendedPANID(xpan))
        #expect(d.networkName?.tlvValue == name)
        #expect(d.encoded() == bytes)
        #expect(d.isValid(as: .active))
    }

    @Test func dataset3NameIsTheEmojiString() throws {
        let bytes = Vectors.datasetA(extendedPANID: "1111111122222244", nameUTF8: Vectors.bytes("7ef09f90a3f09f90a5f09f90a47e"))
        let d = try OperationalDataset(bytes: bytes)
        #expect(d.networkName?.rawValue == "~🐣🐥🐤~")
        #expect(d.networkName?.tlvValue.count == 14)
    }

    @Test func unknownTLVsAreKeptInOrderByteExact() throws {
        // python-otbr-api's DATASET_1 appends bd03abcdef; put unknown ones in the middle too.
        let bytes = Vectors.datasetA + Vectors.bytes("bd03abcdef")
        let d = try OperationalDataset(bytes: bytes)
        #expect(d.encoded() == bytes)
        #expect(d.otherTLVs.count == 1)
        #expect(d.otherTLVs.first?.type == TLVType(0xBD))
        #expect(d.otherTLVs.first?.value == [0xAB, 0xCD, 0xEF])

        let mixed = Vectors.tlv(200, [1]) + Array(Vectors.datasetA[0..<10]) + Vectors.tlv(6, [0, 0, 0, 7])
            + Vectors.tlv(201, []) + Array(Vectors.datasetA[10...])
        let m = try OperationalDataset(bytes: mixed)
        #expect(m.encoded() == mixed)
        #expect(m.tlvs.first?.type == TLVType(200))
        #expect(m.otherTLVs.map(\.type.rawValue) == [200, 6, 201])
        #expect(m.otherTLVs.map(\.value) == [[1], [0, 0, 0, 7], []])
    }

    @Test func duplicateTypesAreRejectedWithBothOffsets() {
        let bytes = Vectors.datasetA + Vectors.tlv(1, [0xAB, 0xCD])
        #expect(throws: DatasetDecodingError(offset: 105, tlvType: .panID, reason: .duplicate(firstOffset: 77))) {
            try OperationalDataset(bytes: bytes)
        }
        #expect(throws: DatasetDecodingError.self) {
            try OperationalDataset(tlvs: [.panID(PANID(1)), .channel(Channel(11)), .panID(PANID(2))])
        }
    }

    @Test func moreThan254BytesIsRejected() throws {
        let filler = Vectors.tlv(200, [UInt8](repeating: 0, count: 147)) // 105 + 149 = 254
        let exactly254 = Vectors.datasetA + filler
        #expect(exactly254.count == 254)
        #expect(try OperationalDataset(bytes: exactly254).encoded() == exactly254)
        let over = exactly254 + Vectors.tlv(201, [])
        let error = try #require(throws: DatasetDecodingError.self) { try OperationalDataset(bytes: over) }
        #expect(error.reason == .tooLong(256))
        #expect(error.tlvType == nil)
        #expect(error.description == "Dataset at offset 254: the dataset is 256 bytes long; the maximum is 254")
    }

    @Test func extendedLengthTLVsAreRejected() {
        let bytes = Vectors.datasetA + [200, 0xFF, 0x00, 0x01, 0x42]
        #expect(throws: DatasetDecodingError(offset: 105, tlvType: TLVType(200), reason: .extendedLength)) {
            try OperationalDataset(bytes: bytes)
        }
    }

    @Test func errorsNameTheTLVAndOffsetInOneSentence() throws {
        let name17 = Vectors.datasetA(extendedPANID: "1111111122222222", nameUTF8: Array("ABCDEFGHIJKLMNOPQ".utf8))
        let error = try #require(throws: DatasetDecodingError.self) { try OperationalDataset(bytes: name17) }
        #expect(error.tlvType == .networkName)
        #expect(error.offset == 61)
        #expect(error.description == "TLV 3 (Network Name) at offset 61: length 17 exceeds 16")

        let badUTF8 = Vectors.datasetA(extendedPANID: "1111111122222222", nameUTF8: [0x41, 0xC3])
        let e2 = try #require(throws: DatasetDecodingError.self) { try OperationalDataset(bytes: badUTF8) }
        #expect(e2.description == "TLV 3 (Network Name) at offset 61: the value is not valid UTF-8")

        let shortPAN = Vectors.tlv(1, [0x12])
        let e3 = try #require(throws: DatasetDecodingError.self) { try OperationalDataset(bytes: shortPAN) }
        #expect(e3.description == "TLV 1 (PAN ID) at offset 0: length 1 is not 2")

        let policy5 = Vectors.tlv(12, [0x02, 0xA0, 0xF7, 0xF8, 0x00])
        let e4 = try #require(throws: DatasetDecodingError.self) { try OperationalDataset(bytes: policy5) }
        #expect(e4.description == "TLV 12 (Security Policy) at offset 0: length 5 is not 3 or 4")

        let e5 = try #require(throws: DatasetDecodingError.self) { try OperationalDataset(hex: "0e0g") }
        #expect(e5.reason == .notHex("character 'g' at position 3 is not a hex digit"))
    }

    @Test func truncationAtEveryOffsetThrowsAtTheCutTLV() {
        let a = Vectors.datasetA
        let starts = Vectors.datasetALayout
        for cut in 0..<a.count {
            let prefix = Array(a[0..<cut])
            // Which TLV the cut falls in, if not on a boundary.
            guard let (start, type) = starts.last(where: { $0.offset < cut }).flatMap({ s in
                starts.contains(where: { $0.offset == cut }) ? nil : s
            }) else {
                // On a TLV boundary the prefix is a valid dataset of the first TLVs (drip-feed).
                let d = try? OperationalDataset(bytes: prefix)
                #expect(d?.encoded() == prefix, "cut \(cut)")
                #expect(d?.tlvs.count == starts.filter { $0.offset < cut }.count, "cut \(cut)")
                continue
            }
            do {
                _ = try OperationalDataset(bytes: prefix)
                Issue.record("cut at \(cut) decoded")
            } catch {
                #expect(error.offset == start, "cut \(cut)")
                #expect(error.tlvType == TLVType(type), "cut \(cut)")
                if cut == start + 1 {
                    #expect(error.reason == .missingLength, "cut \(cut)")
                } else {
                    #expect(error.reason == .truncatedValue(length: Int(a[start + 1]), available: cut - start - 2), "cut \(cut)")
                }
            }
        }
    }

    @Test func everyOneByteCorruptionNeverTraps() {
        // Drip-feed style sweep: every byte of dataset A set to every value decodes or throws, and what
        // decodes re-encodes to the same bytes.
        let a = Vectors.datasetA
        var decoded = 0
        for i in a.indices {
            for v in 0...255 {
                var b = a
                b[i] = UInt8(v)
                if let d = try? OperationalDataset(bytes: b) {
                    decoded += 1
                    #expect(d.encoded() == b)
                }
                _ = OperationalDataset.validate(bytes: b)
            }
        }
        #expect(decoded > 0)
    }

    @Test func emptyInputIsAnEmptyDataset() throws {
        let d = try OperationalDataset(bytes: [])
        #expect(d.tlvs.isEmpty)
        #expect(d.encoded().isEmpty)
    }

    @Test func otherTLVsOfModelledTypesAreStoredTyped() throws {
        var d = try OperationalDataset(tlvs: [.other(type: .channel, value: [0, 0, 20]), .other(type: .panID, value: [1])])
        #expect(d.channel == Channel(20))
        #expect(d.tlvs[1] == .other(type: .panID, value: [1]))  // does not decode: kept as given
        d.set(.other(type: .panID, value: [0xBE, 0xEF]))
        #expect(d.panID == PANID(0xBEEF))
        #expect(d.tlvs.count == 2)
    }

    @Test func settersReplaceInPlaceAndAppend() throws {
        var d = try OperationalDataset(bytes: Vectors.datasetA)
        d.channel = Channel(20)
        #expect(d.tlvs[1] == .channel(Channel(20)))
        d.pendingTimestamp = Timestamp(seconds: 5)
        #expect(d.tlvs.last?.type == .pendingTimestamp)
        d.networkName = nil
        #expect(!d.contains(.networkName))
        #expect(d.tlvs.count == 10)
        d.set(.other(type: TLVType(200), value: [1, 2]))
        #expect(d[TLVType(200)] == .other(type: TLVType(200), value: [1, 2]))
        #expect(try OperationalDataset(bytes: d.encoded()) == d)
    }
}
