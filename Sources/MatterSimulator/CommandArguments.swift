import TBRFoundation

/// A command's `args`, read as python-matter-server reads them (`parse_arguments` and `parse_value` in
/// `common/helpers/api.py` and `util.py`): a missing or `null` argument takes its default, and is an
/// error (8, invalid arguments) only when it has none; extra arguments are ignored; an `int` takes a
/// JSON integer, a Boolean (Python's `bool` is an `int`) or a string of digits; a `str` and a `bool`
/// take only their own kind; an optional argument (`int | None`) that does not parse is dropped.
struct CommandArguments: Sendable {
    let members: JSONObject

    init(_ members: JSONObject?) { self.members = members ?? JSONObject() }

    /// The value of `name`, nil when missing or `null`.
    private func value(_ name: String) -> JSON? {
        guard let v = members[name], !v.isNull else { return nil }
        return v
    }

    /// A required `int`.
    func integer(_ name: String) throws(CommandError) -> IntegerArgument {
        guard let v = value(name), let i = IntegerArgument(v) else { throw .invalidArguments }
        return i
    }

    /// An `int` with a default.
    func integer(_ name: String, default fallback: Int64) throws(CommandError) -> IntegerArgument {
        guard let v = value(name) else { return IntegerArgument(.int(fallback))! }
        guard let i = IntegerArgument(v) else { throw .invalidArguments }
        return i
    }

    /// An `int | None` (a value that does not parse is dropped, as the server logs and drops it).
    func optionalInteger(_ name: String) -> IntegerArgument? { value(name).flatMap(IntegerArgument.init) }

    /// A required `str`.
    func string(_ name: String) throws(CommandError) -> String {
        guard let s = value(name)?.string else { throw .invalidArguments }
        return s
    }

    /// A `str | None`.
    func optionalString(_ name: String) -> String? { value(name)?.string }

    /// A `bool` with a default.
    func bool(_ name: String, default fallback: Bool) throws(CommandError) -> Bool {
        guard let v = value(name) else { return fallback }
        guard let b = v.bool else { throw .invalidArguments }
        return b
    }

    /// An `Any` (nil when missing or `null`).
    func any(_ name: String) -> JSON? { value(name) }

    /// A `str | list[str]`: one string, or strings (`null` elements skipped).
    func strings(_ name: String) throws(CommandError) -> [String] {
        guard let v = value(name) else { throw .invalidArguments }
        if let s = v.string { return [s] }
        guard let elements = v.array else { throw .invalidArguments }
        var out: [String] = []
        for e in elements where !e.isNull {
            guard let s = e.string else { throw .invalidArguments }
            out.append(s)
        }
        return out
    }
}

/// An `int` argument as Python holds it: its value (a node ID when it is one) and its text in messages
/// (`True` for a JSON `true`, which Python takes as 1; `7` for the string `"007"`).
struct IntegerArgument: Hashable, Sendable {
    /// The value when it fits in 64 bits, signed or unsigned.
    let value: JSON
    /// The text Python prints for it.
    let text: String

    init?(_ json: JSON) {
        switch json {
        case .int, .uint:
            value = json
            text = json.serialized
        case .bool(let b):
            value = .int(b ? 1 : 0)
            text = b ? "True" : "False"
        case .string(let s) where !s.isEmpty && s.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }):
            let digits = s.drop { $0 == "0" }
            text = digits.isEmpty ? "0" : String(digits)
            value = UInt64(text).map { JSON($0) } ?? .string(text)
        default:
            return nil
        }
    }

    /// As a node ID, when it is one (a non-negative integer of 64 bits).
    var nodeID: UInt64? { value.uint64 }

    /// As a signed integer, when it fits.
    var int64: Int64? { value.int64 }
}
