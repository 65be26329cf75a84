import MeshCoP

/// A Matter setup passcode (Matter Core Specification, section 5.1.7.1): the secret a commissioner
/// proves with PASE, carried as a 27-bit number in both onboarding payloads.
///
/// A passcode is 00000001 to 99999998, and never one of the values that are too easy to guess:
/// 00000000, 11111111, 22222222 … 99999999, 12345678 and 87654321. The validating initialiser
/// refuses anything else; ``init(unchecked:)`` keeps a value as decoded, so that a parser can say which
/// rule it breaks.
///
/// `description`, `debugDescription`, `dump()` and JSON show ``Secrets/redacted``: read ``rawValue``
/// to hand the passcode to the person who asked for it, and never log it.
public struct Passcode: Hashable, Sendable, Encodable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The number, 1 to 99,999,998 for a valid passcode. Handle with care.
    public let rawValue: UInt32

    /// The valid range: 00000001 to 99999998.
    public static let validRange: ClosedRange<UInt32> = 1...99_999_998

    /// The values inside ``validRange`` that are forbidden because they are easy to guess.
    public static let forbiddenValues: Set<UInt32> = [
        11_111_111, 22_222_222, 33_333_333, 44_444_444, 55_555_555, 66_666_666, 77_777_777, 88_888_888,
        12_345_678, 87_654_321,
    ]

    /// The largest number the payloads' 27-bit field holds.
    public static let fieldMaximum: UInt32 = (1 << 27) - 1

    /// A valid passcode.
    /// - Throws: ``RuleViolation/passcodeOutOfRange`` or ``RuleViolation/passcodeForbidden``.
    public init(_ value: UInt32) throws(RuleViolation) {
        self.init(unchecked: value)
        if let violation = self.violation { throw violation }
    }

    /// `value` as it was decoded or given, valid or not; ``violation`` says which rule it breaks.
    public init(unchecked value: UInt32) { rawValue = value }

    /// The rule this passcode breaks, or nil when it is valid.
    public var violation: RuleViolation? {
        if !Self.validRange.contains(rawValue) { return .passcodeOutOfRange }
        if Self.forbiddenValues.contains(rawValue) { return .passcodeForbidden }
        return nil
    }

    /// Whether the passcode is valid: in ``validRange`` and not one of ``forbiddenValues``.
    public var isValid: Bool { violation == nil }

    /// A uniformly random valid passcode from `generator`.
    ///
    /// Use the default, `SystemRandomNumberGenerator` (on Linux `getrandom(2)`, the kernel's CSPRNG),
    /// for a real device; tests pass a seeded generator.
    public static func random(using generator: inout some RandomNumberGenerator) -> Passcode {
        while true {
            let candidate = Passcode(unchecked: UInt32.random(in: validRange, using: &generator))
            if candidate.isValid { return candidate }
        }
    }

    /// A uniformly random valid passcode from the system's CSPRNG.
    public static func random() -> Passcode {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// The 8 digits, zero-padded (`00000001`), as a person types them. Handle with care.
    public var digits: String {
        let text = String(rawValue)
        return String(repeating: "0", count: max(0, 8 - text.count)) + text
    }

    /// Always ``Secrets/redacted``.
    public var description: String { Secrets.redacted }
    /// Always `Passcode(<redacted>)`.
    public var debugDescription: String { "Passcode(\(Secrets.redacted))" }
    /// A mirror without the number.
    public var customMirror: Mirror { Mirror(self, children: ["rawValue": Secrets.redacted]) }

    /// The number when the encoder's `userInfo[.revealSecrets]` is `true`, else ``Secrets/redacted``
    /// (see MeshCoP's ``Secrets``).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if encoder.userInfo[.revealSecrets] as? Bool ?? false {
            try c.encode(rawValue)
        } else {
            try c.encode(Secrets.redacted)
        }
    }
}
