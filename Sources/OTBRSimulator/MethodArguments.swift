import DBus

/// How otbr-agent reads method arguments (`DBusMessageToTuple`): the leading arguments must have the
/// expected types; extra trailing arguments are ignored.
enum MethodArguments {
    /// The first `types.count` arguments of `call` if their types match, else nil.
    static func prefix(_ call: MethodCall, _ types: [SignatureType]) -> [DBusValue]? {
        let args = call.arguments
        guard args.count >= types.count else { return nil }
        for (value, type) in zip(args, types) where value.type != type { return nil }
        return Array(args.prefix(types.count))
    }

    /// The libdbus error for a method the object does not register (an agent built without a feature).
    static func unknownMethod(_ call: MethodCall) -> DBusError {
        let member = call.message.member?.rawValue ?? ""
        let interface = call.message.interface?.rawValue ?? ""
        return DBusError(
            .unknownMethod,
            "Method \"\(member)\" with signature \"\(call.message.signature)\" on interface \"\(interface)\" doesn't exist\n")
    }
}
