import TBRFoundation

/// How python-matter-server's Python writes and reads what reaches a client, where matter-sim must say
/// the same: `datetime.isoformat()` of its naive UTC dates, `bytes.fromhex` and its errors, and the
/// `repr` and type names in the `TypeError`s its argument parsing raises.
enum Python {
    /// Python's `bytes.fromhex`: pairs of hex digits, ASCII whitespace allowed between pairs; anything
    /// else is refused with the text Python gives, which the server reports as error 0.
    static func fromhex(_ text: String) throws(CommandError) -> [UInt8] {
        let scalars = Array(text.unicodeScalars)
        func digit(_ i: Int) -> UInt8? {
            guard i < scalars.count, scalars[i].isASCII else { return nil }
            let v = UInt8(scalars[i].value)
            switch v {
            case 0x30...0x39: return v - 0x30
            case 0x41...0x46: return v - 0x41 + 10
            case 0x61...0x66: return v - 0x61 + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        var i = 0
        while i < scalars.count {
            if [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"].contains(scalars[i]) {
                i += 1
                continue
            }
            guard let high = digit(i) else { throw .unknown("non-hexadecimal number found in fromhex() arg at position \(i)") }
            guard let low = digit(i + 1) else { throw .unknown("non-hexadecimal number found in fromhex() arg at position \(i + 1)") }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    /// A UTC time as Python's `datetime.isoformat()` writes a naive `datetime.utcnow()`, which is how
    /// python-matter-server stores and sends `date_commissioned` and `last_interview`:
    /// `2024-01-02T03:04:05.123456`, no zone, the fraction left out when it is zero.
    static func isoformat(_ seconds: Double) -> String {
        let micros = Int64((seconds * 1_000_000).rounded(.down))
        var days = micros / 86_400_000_000
        var rest = micros % 86_400_000_000
        if rest < 0 {
            days -= 1
            rest += 86_400_000_000
        }
        let (y, m, d) = civil(days)
        let s = rest / 1_000_000, fraction = rest % 1_000_000
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(y)-\(two(m))-\(two(d))T\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
        if fraction != 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: 6 - digits.count) + digits
        }
        return text
    }

    /// The calendar date of a day number (days since 1970-01-01), by Howard Hinnant's algorithm.
    private static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Python's `repr` of a JSON value as the server holds it.
    static func repr(_ value: JSON) -> String {
        switch value {
        case .null: return "None"
        case .bool(let b): return b ? "True" : "False"
        case .int, .uint: return value.serialized
        case .double(let d): return d == d.rounded() && abs(d) < 1e16 ? "\(Int64(d)).0" : "\(d)"
        case .string(let s): return s.contains("'") && !s.contains("\"") ? "\"\(s)\"" : "'\(s.replacingOccurrences(of: "'", with: "\\'"))'"
        case .array(let a): return "[" + a.map(repr).joined(separator: ", ") + "]"
        case .object(let o): return "{" + o.map { "\(repr(.string($0.key))): \(repr($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    /// Python's name of the type a JSON value has once the server has read it (`<class 'int'>`).
    static func typeName(_ value: JSON) -> String {
        switch value {
        case .null: "<class 'NoneType'>"
        case .bool: "<class 'bool'>"
        case .int, .uint: "<class 'int'>"
        case .double: "<class 'float'>"
        case .string: "<class 'str'>"
        case .array: "<class 'list'>"
        case .object: "<class 'dict'>"
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
