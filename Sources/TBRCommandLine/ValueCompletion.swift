/// How a shell completes the value of an option or positional. It is read from the value name the
/// declaration already has, so nothing is declared twice: `none|all|nat64-only` offers those words,
/// `FILE` files, `DIR` directories, and a name in ``ManualInfo/dynamicValues`` (`ROUTER`) asks the
/// running program. Upper-case placeholders (`SECONDS`, `HEX`) offer nothing.
enum ValueCompletion: Equatable, Sendable {
    /// Nothing to offer: the user types it.
    case nothing
    /// These words.
    case words([String])
    /// File names.
    case files
    /// Directory names.
    case directories
    /// What the program prints, one per line, when run with these arguments.
    case program([String])

    /// The completion of `spec`'s value.
    init(_ spec: ArgumentSpec, dynamic: [String: [String]]) {
        let parts = spec.valueName.split(separator: "|").map(String.init)
        if let helper = parts.lazy.compactMap({ dynamic[$0] }).first {
            self = .program(helper)
        } else if parts.contains("FILE") {
            self = .files
        } else if parts.contains("DIR") {
            self = .directories
        } else {
            let words = parts.filter { part in
                part.first?.isLowercase == true && part.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }
            }
            self = words.isEmpty ? .nothing : .words(words)
        }
    }
}
