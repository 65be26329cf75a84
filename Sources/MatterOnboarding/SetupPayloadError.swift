/// Why a string is not a usable Matter onboarding payload: either it cannot be decoded at all, or it
/// decodes but ``ruleBroken(_:)`` (see ``RuleViolation``). Each case is one sentence for a person.
///
/// No case carries the passcode or the digits of a manual pairing code: the message can be shown and
/// logged without giving the secret away.
public enum SetupPayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is empty (after spaces and dashes, for a manual code).
    case empty
    /// The text is longer than any QR code can be (`count` characters).
    case tooLong(Int)
    /// Several payloads are joined with `*` in one QR string; each device needs its own code.
    case multiplePayloads(Int)
    /// The text given as a QR code does not start with `MT:`.
    case missingQRCodePrefix
    /// The QR code's characters after `MT:` are not Base38.
    case base38(Base38.Error)
    /// The QR code holds `count` bytes, fewer than the 11 of the fixed fields.
    case qrCodeTooShort(Int)
    /// The 4 padding bits after the passcode are not zero.
    case nonZeroPadding(UInt8)
    /// The optional TLV data after the fixed fields is malformed.
    case optionalData(OptionalDataError)
    /// The character at `position` (0-based, in the text as given) is not a digit, space or dash.
    case manualCodeCharacter(Character, position: Int)
    /// The manual code has `count` digits; it must have 11 or 21.
    case manualCodeLength(Int)
    /// The first digit says vendor and product IDs follow (or not), but the length says otherwise.
    case manualCodeLengthMismatch(digits: Int, expected: Int)
    /// The first digit is 8 or 9, reserved for a future format.
    case reservedLeadingDigit(Int)
    /// The last digit is not the Verhoeff check digit of the others: a digit is mistyped.
    case checkDigitMismatch
    /// A group of digits (named, e.g. `vendor ID (digits 11 to 15)`) holds a number above `maximum`,
    /// the largest its field can carry.
    case manualCodeField(String, maximum: UInt32)
    /// The payload decodes but breaks a rule of the specification.
    case ruleBroken(RuleViolation)

    /// The most characters a QR code holds (version 40, alphanumeric mode).
    public static let maximumLength = 4296

    /// The rule broken, when the payload decodes but breaks one.
    public var violation: RuleViolation? { if case .ruleBroken(let v) = self { v } else { nil } }

    /// The error as one sentence.
    public var description: String {
        switch self {
        case .empty:
            "the payload is empty; a QR code starts with 'MT:' and a manual pairing code is 11 or 21 digits"
        case .tooLong(let n):
            "the payload has \(n) characters, more than any QR code holds (\(Self.maximumLength))"
        case .multiplePayloads(let n):
            "the QR code joins \(n) onboarding payloads with '*'; give one device's code at a time"
        case .missingQRCodePrefix:
            "a QR code payload starts with 'MT:'"
        case .base38(let e):
            "the QR code is not valid Base38: \(e)"
        case .qrCodeTooShort(let n):
            "the QR code holds \(n) byte\(n == 1 ? "" : "s"); its fixed fields need 11"
        case .nonZeroPadding(let bits):
            "the QR code's 4 padding bits are 0x\(String(bits, radix: 16, uppercase: true)); they must be 0"
        case .optionalData(let e):
            "the QR code's optional data is malformed: \(e)"
        case .manualCodeCharacter(let c, let p):
            "character \(quoted(c)) at position \(p) is not a digit; a manual pairing code is 11 or 21 digits "
                + "(spaces and dashes allowed) and a QR code starts with 'MT:'"
        case .manualCodeLength(let n):
            "the manual pairing code has \(n) digit\(n == 1 ? "" : "s"); it must have 11 or 21"
        case .manualCodeLengthMismatch(let n, let expected):
            "the manual pairing code has \(n) digits, but its first digit says "
                + (expected == 21 ? "vendor and product IDs follow (21 digits)" : "no vendor and product IDs follow (11 digits)")
        case .reservedLeadingDigit(let d):
            "the manual pairing code starts with \(d); 8 and 9 are reserved for a future format"
        case .checkDigitMismatch:
            "the manual pairing code's check digit does not match the other digits (a digit may be mistyped)"
        case .manualCodeField(let name, let maximum):
            "the manual pairing code's \(name) holds a number above \(maximum), the most its field carries"
        case .ruleBroken(let v):
            "the payload \(v)"
        }
    }
}

/// `c` in single quotes, control characters escaped as `\u{…}`.
func quoted(_ c: Character) -> String {
    var out = "'"
    for scalar in c.unicodeScalars {
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out + "'"
}
