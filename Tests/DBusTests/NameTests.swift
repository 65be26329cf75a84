import DBus
import Testing

@Suite struct NameTests {
    @Test(arguments: ["/", "/io/tbrd", "/io/openthread/BorderRouter/wpan0", "/a_b/C9"])
    func validObjectPaths(_ text: String) throws {
        #expect(try ObjectPath(text).rawValue == text)
    }

    @Test(arguments: ["", "io", "/io/", "//", "/io//tbrd", "/io/t-brd", "/io/tbrd.x", "/é"])
    func invalidObjectPathsAreRejected(_ text: String) {
        #expect(throws: DBusNameError.self) { try ObjectPath(text) }
    }

    @Test func objectPathErrorsNameTheProblem() {
        #expect {
            try ObjectPath(runtime("/io//x"))
        } throws: { error in
            "\(error)" == #"invalid D-Bus object path "/io//x": empty element"#
        }
    }

    @Test func escapedElementsAlwaysMakeValidPaths() throws {
        for s in ["wpan0", "", "a b", "é", "1abc", "/x/", "_"] {
            let p = ObjectPath.root.appending(s)
            #expect(try ObjectPath(p.rawValue) == p)
        }
        #expect(ObjectPath("/io").appending("wpan0").rawValue == "/io/wpan0")
    }

    @Test func busNames() throws {
        for ok in ["io.tbrd", ":1.42", "io.openthread.BorderRouter.wpan0", "a-b.c_d", ":1.0"] {
            #expect(try BusName(ok).rawValue == ok)
        }
        for bad in ["", "io", "io..tbrd", ".io.tbrd", "io.tbrd.", "1io.tbrd", "io.1tbrd", "io.tb rd", String(repeating: "a.", count: 128) + "b"] {
            #expect(throws: DBusNameError.self) { try BusName(bad) }
        }
        #expect(try BusName(runtime(":1.42")).isUnique)
        #expect(try !BusName(runtime("io.tbrd")).isUnique)
    }

    @Test func interfaceMemberAndErrorNames() throws {
        #expect(try InterfaceName(runtime("io.openthread.BorderRouter")).rawValue == "io.openthread.BorderRouter")
        #expect(throws: DBusNameError.self) { try InterfaceName(runtime("io.open-thread")) }
        #expect(throws: DBusNameError.self) { try InterfaceName(runtime("single")) }
        #expect(try MemberName(runtime("ActivateEphemeralKeyMode")).rawValue == "ActivateEphemeralKeyMode")
        for bad in ["", "1Start", "Has.Dot", "has-dash", String(repeating: "a", count: 256)] {
            #expect(throws: DBusNameError.self) { try MemberName(bad) }
        }
        #expect(try ErrorName(runtime("io.openthread.Error.NonLowpanDatatFrame")).rawValue.hasSuffix("Datat" + "Frame"))
        #expect(throws: DBusNameError.self) { try ErrorName(runtime("Busy")) }
    }

    @Test(arguments: ["", "y", "a{sv}", "(tstayqqynyybb)", "a(yy)", "aay", "a{sa{sv}}", "v", "ssv", "((ayy)qybb)"])
    func validSignatures(_ text: String) throws {
        let s = try Signature(text)
        #expect(s.rawValue == text)
        #expect(Signature(s.types) == s)
    }

    @Test(arguments: [
        ("a", "incomplete type"), ("{sv}", "dict entry outside an array"), ("a{vs}", "dict key must be a basic type"),
        ("()", "empty struct"), ("(s", "unterminated struct"), ("a{sss}", "exactly two types"), ("z", "unknown type code"),
        ("s)", "unbalanced"),
    ])
    func invalidSignaturesSayWhy(_ text: String, _ reason: String) {
        #expect {
            try Signature(runtime(text))
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func signatureNestingLimits() throws {
        _ = try Signature(String(repeating: "a", count: 32) + "y")
        #expect(throws: DBusNameError.self) { try Signature(runtime(String(repeating: "a", count: 33) + "y")) }
        _ = try Signature(String(repeating: "(", count: 32) + "y" + String(repeating: ")", count: 32))
        #expect(throws: DBusNameError.self) {
            try Signature(String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33))
        }
        #expect(throws: DBusNameError.self) { try Signature(String(repeating: "y", count: 256)) }
    }

    @Test func matchRuleTextQuotesValues() {
        let rule = MatchRule(sender: "io.tbrd", path: "/io/tbrd", interface: "io.tbrd.Manager1", member: "X",
                             arguments: [0: "it's"])
        #expect(rule.description
            == #"type='signal',sender='io.tbrd',path='/io/tbrd',interface='io.tbrd.Manager1',member='X',arg0='it'\''s'"#)
    }
}

/// Hides a literal from the compiler so the throwing initialiser runs (a literal would pick the
/// trapping `ExpressibleByStringLiteral` initialiser instead).
func runtime(_ s: String) -> String { s }
