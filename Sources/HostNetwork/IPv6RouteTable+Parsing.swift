import TBRFoundation

/// Reading `/proc/net/ipv6_route`'s lines: every field has the kernel's fixed width in hex, so a line
/// that is cut short, a stray character or a field too many is an error, never a guess.
extension IPv6RouteTable {
    /// Why one line is not a route, as the end of a sentence.
    struct LineProblem: Error {
        let why: String
    }

    private typealias Field = ArraySlice<UInt8>

    /// The routes of `bytes`; errors name `file` (nil for text given by a caller) and the line.
    static func parse(bytes: [UInt8], file: String?) throws(HostNetworkError) -> [IPv6Route] {
        var routes: [IPv6Route] = []
        var number = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            let fields = line.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if fields.isEmpty { continue }
            do {
                routes.append(try route(fields))
            } catch {
                throw HostNetworkError(.malformed(error.why), file: file, line: number)
            }
        }
        return routes
    }

    private static func route(_ fields: [Field]) throws(LineProblem) -> IPv6Route {
        guard fields.count == 9 || fields.count == 10 else {
            throw LineProblem(why: "a route has 10 fields (9 without a device), not \(fields.count)")
        }
        let destination = try prefix(fields[0], fields[1], "destination")
        let source = try prefix(fields[2], fields[3], "source")
        let gateway = try address(fields[4], "next hop")
        let metric = try number(fields[5], "metric")
        _ = try number(fields[6], "reference count")
        _ = try number(fields[7], "use count")
        let flags = try number(fields[8], "flags")
        var interface: String?
        if fields.count == 10 {
            if let problem = InterfaceNameRule.problem(with: fields[9]) {
                throw LineProblem(why: "the device \(quoted(fields[9])) is not an interface name: \(problem)")
            }
            guard let name = String(validating: fields[9], as: UTF8.self) else {
                throw LineProblem(why: "the device \(quoted(fields[9])) is not UTF-8")
            }
            interface = name
        }
        return IPv6Route(
            destination: destination, source: source, gateway: gateway.allSatisfy { $0 == 0 } ? nil : gateway,
            metric: metric, flags: IPv6Route.Flags(rawValue: flags), interface: interface)
    }

    private static func prefix(_ address: Field, _ length: Field, _ what: String) throws(LineProblem) -> IPv6Prefix {
        let bytes = try Self.address(address, what)
        guard length.count == 2, let bits = hexValue(length) else {
            throw LineProblem(why: "the \(what) prefix length \(quoted(length)) is not 2 hex digits")
        }
        guard bits <= 128 else { throw LineProblem(why: "the \(what) prefix length \(bits) is over 128") }
        return IPv6Prefix(address: bytes, length: Int(bits))
    }

    private static func address(_ field: Field, _ what: String) throws(LineProblem) -> [UInt8] {
        let problem = LineProblem(why: "the \(what) \(quoted(field)) is not 32 hex digits")
        guard field.count == 32 else { throw problem }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for index in stride(from: field.startIndex, to: field.endIndex, by: 2) {
            guard let high = nibble(field[index]), let low = nibble(field[index + 1]) else { throw problem }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func number(_ field: Field, _ what: String) throws(LineProblem) -> UInt32 {
        guard field.count == 8, let value = hexValue(field) else {
            throw LineProblem(why: "the \(what) \(quoted(field)) is not 8 hex digits")
        }
        return value
    }

    /// The value of up to 8 hex digits; nil when one is not a hex digit.
    private static func hexValue(_ field: Field) -> UInt32? {
        var value: UInt32 = 0
        for byte in field {
            guard let digit = nibble(byte) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A field as it is shown in a message: quoted, escaped, at most 40 characters.
    private static func quoted(_ field: Field) -> String {
        Quoted(String(decoding: field, as: UTF8.self), limit: 40).description
    }
}
