import DBus
import TBRTestKit
import Testing

/// Every value travels client → bus → exported object → bus → client and must come back identical.
@Suite struct ValueRoundTripTests {
    static let samples: [(String, DBusValue)] = [
        ("byte extremes", .structure([.byte(0), .byte(255)])),
        ("bool", .structure([.bool(true), .bool(false)])),
        ("int16 extremes", .structure([.int16(.min), .int16(.max), .int16(0)])),
        ("uint16 extremes", .structure([.uint16(0), .uint16(.max)])),
        ("int32 extremes", .structure([.int32(.min), .int32(.max)])),
        ("uint32 extremes", .structure([.uint32(0), .uint32(.max)])),
        ("int64 extremes", .structure([.int64(.min), .int64(.max)])),
        ("uint64 extremes", .structure([.uint64(0), .uint64(.max)])),
        ("doubles", .structure([.double(0), .double(-1.5), .double(.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude)])),
        ("non-ASCII strings", .structure([.string(""), .string("héllo wörld"), .string("~🐣🐥🐤~"), .string("日本語")])),
        ("object path and signature", .structure([.objectPath("/io/tbrd/router/wpan0"), .signature("a{sv}"), .signature("")])),
        ("bytes", .bytes(Array(0...255))),
        ("empty bytes", .bytes([])),
        ("empty array of structs", .array(element: .structure([.string, .uint32]), [])),
        ("empty dict", .dictionary(key: .string, value: .variant, [])),
        ("array of strings", .array(element: .string, [.string("a"), .string(""), .string("ü")])),
        ("array of arrays of bytes", .array(element: .array(.byte), [.bytes([1, 2]), .bytes([]), .bytes([255])])),
        ("dict string→variant", .dictionary(key: .string, value: .variant, [
            .init(key: .string("n"), value: .variant(.uint16(7))),
            .init(key: .string("s"), value: .variant(.string("x"))),
            .init(key: .string("nested"), value: .variant(.variant(.bytes([1])))),
        ])),
        ("dict with integer keys", .dictionary(key: .uint64, value: .array(.string), [
            .init(key: .uint64(.max), value: .array(element: .string, [])),
        ])),
        ("otbr Scan result", .array(element: .structure([.uint64, .string, .uint64, .array(.byte), .uint16, .uint16, .byte, .int16, .byte, .byte, .boolean, .boolean]), [
            .structure([.uint64(0x1122334455667788), .string(""), .uint64(0), .bytes([]), .uint16(0x1234), .uint16(0),
                        .byte(15), .int16(-70), .byte(200), .byte(0), .bool(false), .bool(false)]),
        ])),
        ("variant of struct", .variant(.structure([.string("a"), .variant(.int32(-1))]))),
        ("deep nesting", deep(20)),
    ]

    static func deep(_ n: Int) -> DBusValue {
        var v = DBusValue.string("core")
        for i in 0..<n { v = i % 2 == 0 ? .structure([v]) : .array(element: v.type, [v]) }
        return v
    }

    @Test func everyTypeRoundTrips() async throws {
        try await withPair([echoInterface()]) { pair in
            for (name, value) in Self.samples {
                let out = try await pair.remote.call("Echo", [value])
                #expect(out == [value], "\(name)")
            }
            // All at once, as one multi-argument message.
            let all = Self.samples.map(\.1)
            #expect(try await pair.remote.call("Echo", all) == all)
        }
    }

    @Test func typedConversionsRoundTrip() async throws {
        try await withPair([echoInterface()]) { pair in
            let dict: [String: UInt32] = ["a": 1, "b": .max]
            let out = try await pair.remote.call("Echo", [DBusValue(dict), DBusValue([UInt8]([1, 2, 3])), DBusValue(["x", "y"])])
            #expect(try out[0].decode(as: [String: UInt32].self) == dict)
            #expect(try out[1].decode(as: [UInt8].self) == [1, 2, 3])
            #expect(try out[2].decode(as: [String].self) == ["x", "y"])
            #expect(throws: DBusValueError.typeMismatch(expected: "s", found: "u")) { try DBusValue.uint32(1).decode(as: String.self) }
        }
    }

    @Test func malformedValuesAreRefusedBeforeSending() async throws {
        try await withPair([echoInterface()]) { pair in
            await #expect {
                try await pair.remote.call("Echo", [.string("nul\u{0}inside")])
            } throws: { error in
                (error as? DBusError)?.message.contains("NUL") == true
            }
            await #expect {
                try await pair.remote.call("Echo", [.array(element: .string, [.uint32(1)])])
            } throws: { error in
                (error as? DBusError)?.message.contains("expected a D-Bus value of type 's' but found 'u'") == true
            }
            await #expect(throws: DBusError.self) { try await pair.remote.call("Echo", [.structure([])]) }
            // The connection is still usable afterwards.
            let after = try await pair.remote.call("Echo", [.bool(true)])
            #expect(after == [.bool(true)])
        }
    }
}
