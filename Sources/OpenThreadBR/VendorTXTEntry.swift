public import DBus

/// One vendor entry of the `_meshcop._udp` TXT record, for `UpdateVendorMeshCopTxtEntries`, `(say)`.
public struct VendorTXTEntry: Hashable, Sendable {
    /// The key. Non-empty; the agent refuses its reserved keys `rv tv sb nn xp at pt dn sq bb omr`.
    public var key: String
    /// The value bytes. For key `id`, 16 bytes that become the Border Agent ID.
    public var value: [UInt8]

    /// An entry.
    public init(key: String, value: [UInt8]) {
        self.key = key
        self.value = value
    }

    /// The keys the agent reserves for itself.
    public static let reservedKeys: Set<String> = ["rv", "tv", "sb", "nn", "xp", "at", "pt", "dn", "sq", "bb", "omr"]

    /// The D-Bus type of one entry.
    public static let dbusType: SignatureType = .structure([.string, .array(.byte)])

    /// The `(say)` struct.
    public var dbusValue: DBusValue { .structure([.string(key), .bytes(value)]) }

    /// Decodes one `(say)` struct.
    /// - Throws: ``DBusValueError`` when the value has another shape.
    public init(dbusValue value: DBusValue) throws(DBusValueError) {
        var r = try StructReader(value, fieldCount: 2)
        key = try r.next(String.self)
        self.value = try r.next([UInt8].self)
    }
}
