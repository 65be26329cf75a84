import Testing
import TBRFoundation

@Suite struct HexTests {
    @Test func roundTripsEveryByte() throws {
        let all = (0...255).map { UInt8($0) }
        #expect(try Hex.decode(Hex.encode(all)) == all)
        #expect(try Hex.decode(Hex.encode(all).uppercased()) == all)
    }

    @Test func acceptsPrefixAndWhitespace() throws {
        #expect(try Hex.decode(" 0xA0b1\n") == [0xa0, 0xb1])
        #expect(try Hex.decode("") == [])
    }

    @Test func rejectsBadInputWithPosition() {
        #expect(throws: Hex.DecodeError.oddLength(3)) { try Hex.decode("abc") }
        #expect(throws: Hex.DecodeError.invalidCharacter("g", position: 2)) { try Hex.decode("00g0") }
    }
}

@Suite struct ByteReaderTests {
    @Test func readsBigEndianAndStopsAtEnd() throws {
        var r = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05])
        #expect(try r.readBigEndian(UInt16.self) == 0x0102)
        #expect(try r.readBigEndian(UInt16.self) == 0x0304)
        #expect(throws: ByteReader.EndOfInput(offset: 4, needed: 2, available: 1)) { try r.readBigEndian(UInt16.self) }
        #expect(try r.readUInt8() == 5)
        #expect(r.isAtEnd)
    }

    @Test func writerIsInverseOfReader() throws {
        var w = ByteWriter()
        w.writeBigEndian(UInt32(0xdeadbeef))
        w.writeBigEndian(UInt64(1) << 16)
        var r = ByteReader(w.bytes)
        #expect(try r.readBigEndian(UInt32.self) == 0xdeadbeef)
        #expect(try r.readBigEndian(UInt64.self) == 1 << 16)
    }
}
