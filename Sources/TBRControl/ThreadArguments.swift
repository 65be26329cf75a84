import MeshCoP
import TBRCommandLine
import TBRFoundation

/// Readers for Thread values given on the command line, for ``ParsedValues/value(_:_:)``. Each
/// rejects a word with the rule it breaks, which the parser turns into
/// "invalid value 'X' for '--option': <rule>".
enum ThreadArguments {
    /// A page-0 channel, 11 to 26.
    static func channel(_ word: String) throws(ArgumentValueError) -> Channel {
        guard let number = UInt16(word), Channel.page0Channels.contains(number) else {
            throw ArgumentValueError("a Thread channel is a number from 11 to 26")
        }
        return Channel(number)
    }

    /// A PAN ID in hex, with or without `0x`: 0x0000 to 0xfffe (0xffff is the broadcast PAN ID).
    static func panID(_ word: String) throws(ArgumentValueError) -> PANID {
        let digits = word.hasPrefix("0x") || word.hasPrefix("0X") ? word.dropFirst(2) : Substring(word)
        guard (1...4).contains(digits.count), digits.allSatisfy(\.isHexDigit), let value = UInt16(digits, radix: 16) else {
            throw ArgumentValueError("a PAN ID is 1 to 4 hex digits, such as 0x1234")
        }
        guard PANID(value) != .broadcast else {
            throw ArgumentValueError("0xffff is the broadcast PAN ID; use 0x0000 to 0xfffe")
        }
        return PANID(value)
    }

    /// An extended PAN ID: 16 hex digits.
    static func extendedPANID(_ word: String) throws(ArgumentValueError) -> ExtendedPANID {
        guard let xpanid = ExtendedPANID(word) else {
            throw ArgumentValueError("an extended PAN ID is 16 hex digits, such as 1111111122222222")
        }
        return xpanid
    }

    /// A mesh-local prefix in fd00::/8, as IPv6 text (`fd00:1234:5678:9abc::/64`) or 16 hex digits.
    static func meshLocalPrefix(_ word: String) throws(ArgumentValueError) -> MeshLocalPrefix {
        let prefix: MeshLocalPrefix? = if let bytes = try? Hex.decode(word), bytes.count == 8 {
            try? MeshLocalPrefix(tlvValue: bytes)
        } else {
            MeshLocalPrefix(word)
        }
        guard let prefix else {
            throw ArgumentValueError("a mesh-local prefix is a /64 such as fd00:1234:5678:9abc::/64, or 16 hex digits")
        }
        guard prefix.isUniqueLocal else {
            throw ArgumentValueError("a mesh-local prefix must be in fd00::/8")
        }
        return prefix
    }

    /// A network name: 1 to 16 bytes of UTF-8.
    static func networkName(_ word: String) throws(ArgumentValueError) -> NetworkName {
        guard let name = NetworkName(word) else {
            throw ArgumentValueError("a network name is 1 to 16 bytes of UTF-8; this one is \(word.utf8.count)")
        }
        return name
    }
}
