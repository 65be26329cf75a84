import TBRFoundation
import Testing

/// JSON as python-matter-server's orjson reads and writes it: exact 64-bit integers apart from floats,
/// members in order, the indentation of its messages, and everything orjson refuses.
@Suite struct JSONTests {
    @Test func valuesKeepTheirKindAndOrder() throws {
        let value = try JSON(parsing: #" {"b": 1, "a": [true, null, 5.0, -0, 18446744073709551615, 18446744073709551616], "c": {"x": "é\u0001"}} "#)
        #expect(value.object?.keys == ["b", "a", "c"])
        #expect(value["b"] == .int(1))
        #expect(value["a"] == [true, nil, .double(5), .int(0), .uint(.max), .double(18446744073709551616)])
        #expect(value["c"]?["x"]?.string == "é\u{1}")
        #expect(value["b"]?.int64 == 1 && value["a"]?.array?[2].int64 == nil)
        // A repeated key keeps its first place and its last value, as a Python dict does.
        #expect(try JSON(parsing: #"{"a":1,"b":2,"a":3}"#).serialized == #"{"a":3,"b":2}"#)
        #expect(try JSON(parsing: #""\ud83d\ude00 \/""#) == "😀 /")
    }

    /// A request whose meaning depends on which of two values a reader keeps can be refused, naming
    /// the key, however it is escaped and at whatever depth.
    @Test func aRepeatedKeyCanBeRefused() throws {
        #expect(throws: JSONParseError(offset: 8, problem: "the key \(Quoted("a")) appears twice in one object", duplicateKey: "a")) {
            try JSON(parsing: #"{"a":1, "a":1}"#, duplicateKeys: .refused)
        }
        #expect(throws: JSONParseError.self) { try JSON(parsing: #"[{"x":{"k":1,"\u006b":2}}]"#, duplicateKeys: .refused) }
        #expect(try JSON(parsing: #"{"a":{"a":1},"b":[{"a":2},{"a":3}]}"#, duplicateKeys: .refused)["b"]?.array?.count == 2, "one key per object, not per text")
    }

    @Test func whatOrjsonRefusesIsRefused() {
        for text in ["", "[1,]", "{\"a\":1,}", "NaN", "01", "1E400", "\"\\ud800\"", "\"\\udc00\"", "[1] x", "{'a':1}", "\"a\u{1}\"", "tru", "-", "1.", "1e",
            "\"\\x\"", String(repeating: "[", count: 1025) + String(repeating: "]", count: 1025)]
        {
            #expect(throws: JSONParseError.self, "\(text.prefix(20))") { try JSON(parsing: text) }
        }
        #expect(throws: JSONParseError(offset: 0, problem: "a number with a leading zero")) { try JSON(parsing: "01") }
        // 1024 levels are fine.
        #expect(throws: Never.self) { try JSON(parsing: String(repeating: "[", count: 1024) + String(repeating: "]", count: 1024)) }
    }

    @Test func indentedTextIsOrjsonsIndent2() {
        let message: JSON = ["message_id": "1", "result": ["node_id": 1, "attributes": ["0/29/0": [["0": 22, "1": 1]], "e": [], "o": [:]], "u": "é\u{1}\"/\u{8}"]]
        // What orjson.dumps(…, option=OPT_INDENT_2) writes for the same value.
        #expect(message.indented == """
            {
              "message_id": "1",
              "result": {
                "node_id": 1,
                "attributes": {
                  "0/29/0": [
                    {
                      "0": 22,
                      "1": 1
                    }
                  ],
                  "e": [],
                  "o": {}
                },
                "u": "é\\u0001\\"/\\b"
              }
            }
            """)
        #expect(message.serialized == #"{"message_id":"1","result":{"node_id":1,"attributes":{"0/29/0":[{"0":22,"1":1}],"e":[],"o":{}},"u":"é\u0001\"/\b"}}"#)
        let doubles: JSON = [.double(1e20), .double(1.5e-7), .double(2), .double(100), .double(1e16), .double(123456.789), .double(.nan)]
        #expect(doubles.serialized == "[1e20,1.5e-7,2.0,100.0,1e16,123456.789,null]")
    }

    @Test func textRoundTrips() throws {
        let text = #"{"a":[1,-2,3.25,"x\ny",{"b":null,"c":false}],"d":18446744073709551615,"e":{}}"#
        let value = try JSON(parsing: text)
        #expect(value.serialized == text)
        #expect(try JSON(parsing: value.indented) == value)
    }
}
