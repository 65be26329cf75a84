import MeshCoP
import Testing

@Suite("An ePSKc as a person types it")
struct EphemeralKeyTypedTests {
    @Test("spaces and dashes between the digits are ignored; anything else is still an error")
    func typed() throws {
        let key = try EphemeralKey.generate()
        let d = Array(key.digits)
        let grouped = String(d[0..<3]) + " " + String(d[3..<6]) + "-" + String(d[6..<9])
        #expect(try EphemeralKey(typed: grouped) == key)
        #expect(try EphemeralKey(typed: key.digits) == key)
        #expect(throws: EphemeralKey.ValidationError.self) { try EphemeralKey(typed: String(d[0..<3]) + "." + String(d[3...])) }
        #expect(throws: EphemeralKey.ValidationError.self) { try EphemeralKey(typed: " - ") }
    }
}
