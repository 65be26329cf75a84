internal import CAvahiClient
internal import Dispatch
internal import Glibc

/// What a service resolver reported, copied out of Avahi's callback.
enum ResolverInput: Sendable {
    case found(ServiceTable.Resolution)
    case failed(code: Int32)
}

/// Owns one `AvahiServiceResolver` for one sighting. Avahi keeps it running after it resolves: it
/// reports FOUND again when the service's records change and FAILURE when they are gone and nothing
/// answers. Keeps its client alive; freed on the client's queue.
final class ResolverHandle: @unchecked Sendable {
    // @unchecked: `raw` is only used on the client's queue.
    let raw: OpaquePointer
    let client: ClientHandle
    let context: CallbackContext

    private init(raw: OpaquePointer, client: ClientHandle, context: CallbackContext) {
        self.raw = raw
        self.client = client
        self.context = context
    }

    /// `avahi_service_resolver_new` for `sighting`, asking for an address of the sighting's own protocol.
    /// - Throws: ``MDNSError`` when avahi-daemon refuses.
    static func open(client: ClientHandle, sighting: ServiceTable.Sighting, context: CallbackContext) throws(MDNSError)
        -> ResolverHandle
    {
        dispatchPrecondition(condition: .onQueue(client.poll.queue))
        let raw = Avahi.c.avahi_service_resolver_new(
            client.raw, sighting.interface, sighting.ipProtocol, sighting.key.name, sighting.key.type.rawValue,
            sighting.key.domain, sighting.ipProtocol, AvahiLookupFlags(rawValue: 0),
            { resolver, interface, _, event, _, _, _, hostName, address, port, txt, flags, userdata in
                guard let context = CallbackContext.from(userdata) else { return }
                let token = context.token
                let input: ResolverInput
                if event == AVAHI_RESOLVER_FOUND {
                    input = .found(
                        ServiceTable.Resolution(
                            hostName: hostName.map { String(cString: $0) } ?? "",
                            address: address.map { ResolverHandle.text(of: $0, interface: interface) },
                            port: port, txt: ResolverHandle.wireFormat(txt),
                            isLocal: flags.rawValue & AVAHI_LOOKUP_RESULT_LOCAL.rawValue != 0))
                } else {
                    let client = resolver.flatMap { Avahi.c.avahi_service_resolver_get_client($0) }
                    input = .failed(code: client.map { Avahi.c.avahi_client_errno($0) } ?? -1)
                }
                context.post { $0.resolverEvent(token: token, input) }
            },
            context.userdata)
        guard let raw else {
            throw MDNSError.avahi(Avahi.c.avahi_client_errno(client.raw), "cannot resolve \"\(sighting.key.name)\" (\(sighting.key.type))")
        }
        return ResolverHandle(raw: raw, client: client, context: context)
    }

    /// The TXT record in DNS wire format, as `avahi_string_list_serialize` writes it (the strings in
    /// order, each length-prefixed; an empty record is one zero byte). No parsing happens here: the
    /// bytes go to a codec built for hostile input.
    static func wireFormat(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [UInt8] {
        let size = Avahi.c.avahi_string_list_serialize(list, nil, 0)
        guard size > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBytes { Avahi.c.avahi_string_list_serialize(list, $0.baseAddress, $0.count) }
        return Array(bytes.prefix(written))
    }

    /// An address as text; an IPv6 link-local address gets its interface (`fe80::1%eth0`).
    static func text(of address: UnsafePointer<AvahiAddress>, interface: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        let text = buffer.withUnsafeMutableBufferPointer { b in
            Avahi.c.avahi_address_snprint(b.baseAddress, b.count, address).map { String(cString: $0) } ?? ""
        }
        guard address.pointee.proto == AvahiProtocol(tbrd_avahi_proto_inet6), text.lowercased().hasPrefix("fe80:"),
            interface > 0
        else { return text }
        var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
        let interfaceName = name.withUnsafeMutableBufferPointer { b in
            if_indextoname(UInt32(interface), b.baseAddress).map { String(cString: $0) }
        }
        return text + "%" + (interfaceName ?? "\(interface)")
    }

    deinit {
        dispatchPrecondition(condition: .onQueue(client.poll.queue))
        _ = Avahi.c.avahi_service_resolver_free(raw)
    }
}
