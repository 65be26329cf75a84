/// Which signals a subscription receives: the bus's match-rule language, typed.
public struct MatchRule: Hashable, Sendable, CustomStringConvertible {
    /// Only signals from this sender; a well-known name follows its current owner.
    public var sender: BusName?
    /// Only signals from exactly this object.
    public var path: ObjectPath?
    /// Only signals from this object or below it.
    public var pathNamespace: ObjectPath?
    public var interface: InterfaceName?
    public var member: MemberName?
    /// String arguments that must match exactly, by index (`arg0='…'`).
    public var arguments: [Int: String]

    /// A rule for signals; nil fields match anything.
    public init(
        sender: BusName? = nil, path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil,
        interface: InterfaceName? = nil, member: MemberName? = nil, arguments: [Int: String] = [:]
    ) {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// `PropertiesChanged` of `interface` on `path` from `sender`.
    public static func propertiesChanged(sender: BusName?, path: ObjectPath, interface: InterfaceName) -> MatchRule {
        MatchRule(sender: sender, path: path, interface: .properties, member: "PropertiesChanged",
                  arguments: [0: interface.rawValue])
    }

    /// `NameOwnerChanged` for one name.
    public static func nameOwnerChanged(_ name: BusName) -> MatchRule {
        MatchRule(sender: .bus, path: ObjectPath(unchecked: "/org/freedesktop/DBus"), interface: .bus,
                  member: "NameOwnerChanged", arguments: [0: name.rawValue])
    }

    /// `NameOwnerChanged` of every name that loses its owner (the new owner, `arg2`, empty): a client
    /// leaving the bus, for one.
    public static let namesLosingOwner = MatchRule(
        sender: .bus, path: ObjectPath(unchecked: "/org/freedesktop/DBus"), interface: .bus, member: "NameOwnerChanged",
        arguments: [2: ""])

    /// The rule text for `AddMatch`/`RemoveMatch`, values quoted and escaped as the specification says.
    public var description: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender=" + Self.quote(sender.rawValue)) }
        if let path { parts.append("path=" + Self.quote(path.rawValue)) }
        if let pathNamespace { parts.append("path_namespace=" + Self.quote(pathNamespace.rawValue)) }
        if let interface { parts.append("interface=" + Self.quote(interface.rawValue)) }
        if let member { parts.append("member=" + Self.quote(member.rawValue)) }
        for (i, v) in arguments.sorted(by: { $0.key < $1.key }) { parts.append("arg\(i)=" + Self.quote(v)) }
        return parts.joined(separator: ",")
    }

    /// Quotes a value: apostrophes cannot be escaped inside quotes, so they are written `'\''`.
    static func quote(_ v: String) -> String {
        "'" + v.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// Local matching of a delivered signal. `senderOwner` is the unique name currently owning
    /// ``sender`` when it is a well-known name.
    func matches(_ m: Message, senderOwner: String?) -> Bool {
        guard m.kind == .signal else { return false }
        if let sender {
            if sender.isUnique || sender == .bus {
                guard m.sender == sender.rawValue else { return false }
            } else {
                guard let senderOwner, m.sender == senderOwner else { return false }
            }
        }
        if let path, m.path != path { return false }
        if let pathNamespace, let p = m.path, !p.isDescendant(of: pathNamespace) { return false }
        if let interface, m.interface != interface { return false }
        if let member, m.member != member { return false }
        for (i, expected) in arguments {
            guard i < m.body.count, case .string(let s) = m.body[i], s == expected else { return false }
        }
        return true
    }
}
