import TBRFoundation

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

    /// Why `name` cannot name a structure, or nil when it can: ``TBRFoundation/NameRules`` with at most
    /// ``maximumNameLength`` bytes (the rules rooms and Matter nodes follow too).
    public static func problem(withName name: String) -> String? {
        NameRules.problem(with: name, maximumBytes: maximumNameLength)
    }

    /// `name` in Unicode Normalization Form C (``TBRFoundation/NameRules/canonical(_:)``).
    public static func canonicalName(_ name: String) -> String { NameRules.canonical(name) }
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
