import MatterOnboarding
import TBRCommandLine

/// Readers for the values of `tbrctl matter generate`. A word that is not the right kind of value is
/// a usage error (64); a number the specification forbids is read here and refused later with the rule
/// it breaks (65), so that "not a number" and "a forbidden number" stay apart.
enum MatterArguments {
    /// A whole number, decimal or hex with `0x`; numbers too large for 64 bits read as `UInt64.max`
    /// (they are out of every field's range, which the caller reports).
    static func number(_ word: String) throws(ArgumentValueError) -> UInt64 {
        let isHex = word.hasPrefix("0x") || word.hasPrefix("0X")
        let digits = isHex ? word.dropFirst(2) : Substring(word)
        guard !digits.isEmpty, digits.allSatisfy({ isHex ? $0.isHexDigit : $0.isASCII && $0.isNumber }) else {
            throw ArgumentValueError("expected a whole number, in decimal or in hex with 0x")
        }
        return UInt64(digits, radix: isHex ? 16 : 10) ?? .max
    }

    /// A node ID as `tbrctl matter nodes` lists it: decimal, or hex with `0x`.
    static func nodeID(_ word: String) throws(ArgumentValueError) -> NodeID {
        guard let id = NodeID(parsing: word) else { throw ArgumentValueError("a node ID is a whole number, decimal or hex with 0x") }
        return id
    }

    /// The passcode: `random`, or a whole number in decimal.
    static func passcode(_ word: String) throws(ArgumentValueError) -> PasscodeChoice {
        if word == "random" { return .random }
        guard !word.isEmpty, word.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ArgumentValueError("expected 'random' or the passcode's digits, such as 20202021")
        }
        return .number(UInt64(word) ?? .max)
    }

    /// What `--passcode` asked for.
    enum PasscodeChoice: Equatable {
        /// A random valid passcode from the system's CSPRNG.
        case random
        /// This number (not yet checked against the rules).
        case number(UInt64)
    }

    /// `standard`, `user-intent` or `custom`.
    static func flow(_ word: String) throws(ArgumentValueError) -> CommissioningFlow {
        switch word {
        case "standard": .standard
        case "user-intent": .userIntent
        case "custom": .custom
        default: throw ArgumentValueError("a commissioning flow is standard, user-intent or custom")
        }
    }

    /// A comma list of `soft-ap`, `ble`, `on-network`, `wifi-paf`; the empty word is the empty set,
    /// which the QR code's rule then refuses.
    static func discovery(_ word: String) throws(ArgumentValueError) -> DiscoveryCapabilities {
        var capabilities: DiscoveryCapabilities = []
        guard !word.isEmpty else { return capabilities }
        for item in word.split(separator: ",", omittingEmptySubsequences: false) {
            let name = item.trimmingCharacters(in: " ")
            guard let entry = DiscoveryCapabilities.named.first(where: { $0.argument == name }) else {
                throw ArgumentValueError(
                    "discovery capabilities are a comma list of soft-ap, ble, on-network and wifi-paf")
            }
            capabilities.insert(entry.capability)
        }
        return capabilities
    }
}

extension Substring {
    /// The text without `character` at either end.
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
