/// The Verhoeff check digit (dihedral group D5), as OpenThread (`verhoeff_checksum.cpp`) and Matter
/// manual pairing codes use it: it catches every single-digit error and every swap of adjacent digits.
public enum Verhoeff {
    /// Why a string cannot be checked or does not check out.
    public enum Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The character at `position` (0-based) is not an ASCII digit.
        case notADigit(Character, position: Int)
        /// Validation was asked of an empty string (it needs at least the check digit).
        case empty
        /// The last digit is not the check digit of the others.
        case checkDigitMismatch

        /// The error as one sentence.
        public var description: String {
            switch self {
            case .notADigit(let c, let p): "character \(quoted(c)) at position \(p) is not a digit 0–9"
            case .empty: "there are no digits"
            case .checkDigitMismatch: "the check digit does not match the other digits (a digit may be mistyped)"
            }
        }
    }

    private static let d: [[UInt8]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ]
    private static let p: [[UInt8]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
        [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
        [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ]
    private static let inverse: [UInt8] = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]

    /// The check digit to append to `digits` ("0" for no digits).
    /// - Throws: ``Error/notADigit(_:position:)`` for anything but ASCII digits.
    public static func checkDigit(for digits: some StringProtocol) throws(Error) -> Character {
        let values = try digitValues(digits)
        var c: UInt8 = 0
        for (i, digit) in values.reversed().enumerated() { c = d[Int(c)][Int(p[(i + 1) % 8][Int(digit)])] }
        return Character(Unicode.Scalar(inverse[Int(c)] + 0x30))
    }

    /// Checks `digits` whose last digit is the check digit.
    /// - Throws: ``Error/empty``, ``Error/notADigit(_:position:)`` or ``Error/checkDigitMismatch``.
    public static func validate(_ digits: some StringProtocol) throws(Error) {
        let values = try digitValues(digits)
        guard !values.isEmpty else { throw .empty }
        var c: UInt8 = 0
        for (i, digit) in values.reversed().enumerated() { c = d[Int(c)][Int(p[i % 8][Int(digit)])] }
        guard c == 0 else { throw .checkDigitMismatch }
    }

    /// True when `digits` are ASCII digits whose last is the Verhoeff check digit of the others.
    public static func isValid(_ digits: some StringProtocol) -> Bool {
        do { try validate(digits); return true } catch { return false }
    }

    /// The digit values 0–9 of `text`.
    private static func digitValues(_ text: some StringProtocol) throws(Error) -> [UInt8] {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for (position, c) in text.enumerated() {
            guard let ascii = c.asciiValue, (0x30...0x39).contains(ascii) else { throw .notADigit(c, position: position) }
            values.append(ascii - 0x30)
        }
        return values
    }
}

/// `c` in single quotes, control characters escaped.
func quoted(_ c: Character) -> String { "'" + escapingControlCharacters(String(c)) + "'" }
