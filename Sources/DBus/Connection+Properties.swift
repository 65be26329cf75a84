extension Connection {
    /// The built-in `org.freedesktop.DBus.Properties` for exported objects.
    func handleProperties(object: ExportedObject, call: MethodCall) {
        let member = call.message.member?.rawValue ?? ""
        let sig = call.message.signature.rawValue
        switch (member, sig) {
        case ("Get", "ss"):
            guard let (iface, property) = lookupProperty(object, call) else { return }
            guard let get = property.get else {
                replyError(call, .accessDenied, "property \(property.name) of \(iface.name) is write-only")
                return
            }
            spawn(call) { [.variant(try await get())] }
        case ("Set", "ssv"):
            guard let (iface, property) = lookupProperty(object, call) else { return }
            guard let set = property.set else {
                replyError(call, .propertyReadOnly, "property \(property.name) of \(iface.name) is read-only")
                return
            }
            guard case .variant(let value) = call.arguments[2], value.type == property.type else {
                let found = call.arguments[2].unwrappingVariant.type.text
                replyError(call, .invalidArgs, "property \(property.name) has type '\(property.type.text)', not '\(found)'")
                return
            }
            spawn(call) {
                try await set(value, call)
                return []
            }
        case ("GetAll", "s"):
            guard case .string(let name) = call.arguments[0] else { return }
            guard let iname = try? InterfaceName(name), let iface = object.interfaces[iname] else {
                // The specification allows an empty dict for an interface without properties.
                if (try? InterfaceName(name)).map({ Introspection.standard.map(\.name).contains($0) }) == true || name.isEmpty {
                    reply(call, [.dictionary(key: .string, value: .variant, [])])
                } else {
                    replyError(call, .unknownInterface, "no interface \(name)")
                }
                return
            }
            let readable = iface.properties.filter { $0.get != nil }
            spawn(call) {
                var entries: [DBusValue.DictEntry] = []
                for p in readable {
                    entries.append(.init(key: .string(p.name.rawValue), value: .variant(try await p.get!())))
                }
                return [.dictionary(key: .string, value: .variant, entries)]
            }
        case ("Get", _), ("Set", _), ("GetAll", _):
            replyError(call, .invalidArgs, "\(member) called with signature '\(sig)'")
        default:
            replyError(call, .unknownMethod, "no method \(member) in interface \(InterfaceName.properties)")
        }
    }

    private func lookupProperty(_ object: ExportedObject, _ call: MethodCall) -> (Interface, Property)? {
        guard case .string(let iname) = call.arguments[0], case .string(let pname) = call.arguments[1] else { return nil }
        guard let name = try? InterfaceName(iname), let iface = object.interfaces[name] else {
            replyError(call, .unknownInterface, "no interface \(iname)")
            return nil
        }
        guard let property = iface.property(pname) else {
            replyError(call, .unknownProperty, "no property \(pname) in interface \(iname)")
            return nil
        }
        return (iface, property)
    }
}
