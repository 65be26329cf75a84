/// An attribute path `"endpoint/cluster/attribute"` as python-matter-server's `parse_attribute_path`
/// reads it: exactly three parts split at `/` (else Python's unpacking error, which the server reports
/// as error 0), each a number or, when it is not one, a wildcard (nil).
struct AttributePath: Hashable, Sendable {
    var endpoint: UInt64?
    var cluster: UInt64?
    var attribute: UInt64?

    /// Reads `text`.
    /// - Throws: ``CommandError`` 0 with Python's words for a path of other than three parts.
    init(parsing text: String) throws(CommandError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .unknown(
                parts.count > 3 ? "too many values to unpack (expected 3)" : "not enough values to unpack (expected 3, got \(parts.count))")
        }
        func number(_ s: Substring) -> UInt64? {
            guard !s.isEmpty, s.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return UInt64(s) ?? UInt64.max
        }
        endpoint = number(parts[0])
        cluster = number(parts[1])
        attribute = number(parts[2])
    }

    /// Whether the attribute stored under `key` ("e/c/a") is on this path (wildcards match anything).
    func matches(_ key: String) -> Bool {
        let parts = key.split(separator: "/").map { UInt64($0) }
        guard parts.count == 3 else { return false }
        return (endpoint == nil || parts[0] == endpoint) && (cluster == nil || parts[1] == cluster) && (attribute == nil || parts[2] == attribute)
    }
}
