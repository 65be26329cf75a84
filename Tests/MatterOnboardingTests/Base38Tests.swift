import MatterOnboarding
import Testing

/// Base38 against the CHIP SDK's own vectors (`TestQRCode.cpp`, `TestBase38`).
@Suite struct Base38Tests {
    @Test(arguments: [
        ([], ""), ([10], "A0"), ([10, 10], "OT10"), ([10, 10, 10], "-N.B0"), ([10, 10, 0], "OT100"),
        ([10, 10, 40], "Y6V91"), ([10, 10, 41], "KL0B1"), ([10, 10, 255], "Q-M08"), ([35], "Z0"), ([255, 0], "R600"),
        ([46, 0, 0], "81000"), ([255], "R6"), ([255, 255], "NE71"), ([255, 255, 255], "PLS18"),
        (Array("Hello World!".utf8), "KKHF3W2S013OPM3EJX11"),
    ] as [([UInt8], String)])
    func encodesAndDecodesTheSDKVectors(_ bytes: [UInt8], _ text: String) throws {
        #expect(Base38.encode(bytes) == text)
        #expect(try Base38.decode(text) == bytes)
    }

    @Test func theLargestValueOfEachGroupSizeDecodesAndOneMoreOverflows() throws {
        #expect(try Base38.decode("S600") == [0, 1])
        #expect(try Base38.decode("OE710") == [0, 0, 1])
        #expect(throws: Base38.Error.chunkOverflow(position: 0)) { try Base38.decode("S6") }
        #expect(throws: Base38.Error.chunkOverflow(position: 0)) { try Base38.decode("OE71") }
        #expect(throws: Base38.Error.chunkOverflow(position: 5)) { try Base38.decode("00000QLS18") }
    }

    @Test(arguments: ["0\u{1}", "[0", " 0", "!0", "%0", "*0", "+0", ",0", "@0", "a0", "é0"])
    func charactersOutsideTheAlphabetAreRefused(_ text: String) {
        #expect(throws: (Base38.Error).self) { try Base38.decode(text) }
    }

    @Test(arguments: [1, 3, 6, 8])
    func groupsOfOneOrThreeCharactersAreRefused(_ count: Int) {
        #expect(throws: Base38.Error.invalidLength(count)) { try Base38.decode(String(repeating: "0", count: count)) }
    }

    @Test func everyByteStringRoundTrips() throws {
        var generator = SeededGenerator(seed: 38)
        for length in 0..<64 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(try Base38.decode(Base38.encode(bytes)) == bytes)
        }
    }
}
