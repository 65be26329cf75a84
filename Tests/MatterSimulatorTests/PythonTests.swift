@testable import MatterSimulator
import TBRFoundation
import Testing

/// The Python behaviours matter-sim repeats, checked against what CPython 3.12 prints.
@Suite struct PythonTests {
    @Test func fromhexAsCPython() throws {
        #expect(try Python.fromhex("0e 08") == [0x0E, 0x08])
        #expect(try Python.fromhex(" 0e\t") == [0x0E])
        #expect(try Python.fromhex("") == [])
        for (text, position) in [("0", 1), ("0g", 1), ("zz", 0), ("0e0", 3), ("0e 0", 4), ("é0", 0)] {
            #expect(throws: CommandError.unknown("non-hexadecimal number found in fromhex() arg at position \(position)"), "\(text)") {
                try Python.fromhex(text)
            }
        }
    }

    @Test func isoformatAsDatetime() {
        #expect(Python.isoformat(0) == "1970-01-01T00:00:00")
        #expect(Python.isoformat(1_704_164_645.123456) == "2024-01-02T03:04:05.123456")
        #expect(Python.isoformat(951_782_400.5) == "2000-02-29T00:00:00.500000")
    }

    @Test func reprAsPython() {
        #expect(Python.repr([1, true, nil, .double(5), "it's", ["a": "b"]]) == #"[1, True, None, 5.0, "it's", {'a': 'b'}]"#)
        #expect(Python.typeName(.double(1)) == "<class 'float'>" && Python.typeName(true) == "<class 'bool'>")
    }

    @Test func attributePathsAsTheServerSplitsThem() throws {
        let path = try AttributePath(parsing: "0/40/*")
        #expect(path.endpoint == 0 && path.cluster == 40 && path.attribute == nil)
        #expect(path.matches("0/40/5") && !path.matches("1/40/5"))
        #expect(throws: CommandError.unknown("too many values to unpack (expected 3)")) { try AttributePath(parsing: "0/40/5/1") }
        #expect(throws: CommandError.unknown("not enough values to unpack (expected 3, got 1)")) { try AttributePath(parsing: "x") }
    }
}
