/// A structure: a named set of border routers with its Thread network settings.
public struct StructureRecord: Hashable, Sendable, Identifiable {
    /// Its identifier.
    public var id: ID
    /// Its name, unique among structures.
    public var name: String
    /// When it was created (seconds since the Unix epoch).
    public var createdAt: Double
    /// Its settings: the desired policy.
    public var settings: StructureSettings
    /// When the settings last changed (seconds since the Unix epoch); nil if never set.
    public var settingsUpdatedAt: Double?

    /// A structure with these values (the store creates them; this is for callers' tests).
    public init(
        id: ID, name: String, createdAt: Double, settings: StructureSettings = StructureSettings(),
        settingsUpdatedAt: Double? = nil
    ) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.settings = settings
        self.settingsUpdatedAt = settingsUpdatedAt
    }

    /// The longest name accepted, in UTF-8 bytes.
    public static let maximumNameLength = 64

    /// Why `name` cannot name a structure, or nil when it can: it must be 1…64 UTF-8 bytes (in NFC), with
    /// no control, format (zero-width, bidirectional overrides, BOM), line or paragraph separator,
    /// private-use or unassigned characters, and not start or end with white space. Two names that look
    /// the same are the same name: names are compared and stored in Unicode NFC (``canonicalName(_:)``).
    public static func problem(withName name: String) -> String? {
        let name = canonicalName(name)
        if name.isEmpty { return "the name is empty" }
        if name.utf8.count > maximumNameLength { return "the name is longer than \(maximumNameLength) bytes" }
        for scalar in name.unicodeScalars {
            let digits = String(scalar.value, radix: 16, uppercase: true)
            let hex = "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
            switch scalar.properties.generalCategory {
            case .control: return "the name contains a control character (\(hex))"
            case .format: return "the name contains an invisible formatting character (\(hex))"
            case .lineSeparator, .paragraphSeparator: return "the name contains a line or paragraph separator (\(hex))"
            case .privateUse, .unassigned, .surrogate: return "the name contains an unassigned or private-use character (\(hex))"
            default: continue
            }
        }
        if name.first!.isWhitespace || name.last!.isWhitespace { return "the name starts or ends with white space" }
        return nil
    }

    /// `name` in Unicode Normalization Form C, the form names are stored, compared and looked up in, so
    /// "Café" typed precomposed or decomposed is one name. Uses the standard library's own NFC (the one
    /// `String` equality is defined by).
    public static func canonicalName(_ name: String) -> String {
        String(decoding: name._nfcCodeUnits, as: UTF8.self)
    }
}

extension StructureRecord {
    /// The store's identifier of a structure: a positive integer never reused, even after the structure is
    /// deleted (so a D-Bus object path made from it never names two structures).
    public struct ID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
        /// The row id.
        public let rawValue: Int64
        /// The identifier `rawValue`.
        public init(rawValue: Int64) { self.rawValue = rawValue }

        /// Decodes a JSON number.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(Int64.self)
        }

        /// Encodes as a JSON number.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(rawValue)
        }

        /// Orders by creation (ids increase).
        public static func < (a: ID, b: ID) -> Bool { a.rawValue < b.rawValue }
        /// The number in decimal.
        public var description: String { String(rawValue) }
    }
}
