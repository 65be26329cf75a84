internal import CAvahiClient
internal import Dispatch

/// What an entry group reported, copied out of Avahi's callback.
enum EntryGroupInput: Sendable {
    case established
    case collision
    case failed(code: Int32)
}

/// Owns one `AvahiEntryGroup` holding one service. Freeing it withdraws the service (Avahi sends
/// goodbye packets). Keeps its client alive; freed on the client's queue.
final class EntryGroupHandle: @unchecked Sendable {
    // @unchecked: `raw` is only used on the client's queue.
    let raw: OpaquePointer
    let client: ClientHandle
    let context: CallbackContext

    private init(raw: OpaquePointer, client: ClientHandle, context: CallbackContext) {
        self.raw = raw
        self.client = client
        self.context = context
    }

    /// `avahi_entry_group_new`; state changes are posted with `context`'s token.
    /// - Throws: ``MDNSError`` when avahi-daemon refuses.
    static func open(client: ClientHandle, context: CallbackContext) throws(MDNSError) -> EntryGroupHandle {
        dispatchPrecondition(condition: .onQueue(client.poll.queue))
        let raw = Avahi.c.avahi_entry_group_new(
            client.raw,
            { group, state, userdata in
                guard let context = CallbackContext.from(userdata) else { return }
                let token = context.token
                let input: EntryGroupInput
                switch state {
                case AVAHI_ENTRY_GROUP_ESTABLISHED: input = .established
                case AVAHI_ENTRY_GROUP_COLLISION: input = .collision
                case AVAHI_ENTRY_GROUP_FAILURE:
                    let client = group.flatMap { Avahi.c.avahi_entry_group_get_client($0) }
                    input = .failed(code: client.map { Avahi.c.avahi_client_errno($0) } ?? -1)
                default: return
                }
                context.post { $0.entryGroupEvent(token: token, input) }
            },
            context.userdata)
        guard let raw else { throw MDNSError.avahi(Avahi.c.avahi_client_errno(client.raw), "cannot create an Avahi entry group") }
        return EntryGroupHandle(raw: raw, client: client, context: context)
    }

    /// Replaces the group's content with `registration` under `name` and commits it (Avahi probes the
    /// name, then announces).
    /// - Throws: ``MDNSError`` when Avahi refuses the service.
    func register(_ registration: ServiceRegistration, as name: String) throws(MDNSError) {
        dispatchPrecondition(condition: .onQueue(client.poll.queue))
        _ = Avahi.c.avahi_entry_group_reset(raw)
        let list = Self.stringList(registration.txt)
        defer { Avahi.c.avahi_string_list_free(list) }
        var rc = Avahi.c.avahi_entry_group_add_service_strlst(
            raw, AvahiIfIndex(tbrd_avahi_if_unspec), AvahiProtocol(tbrd_avahi_proto_unspec), AvahiPublishFlags(rawValue: 0),
            name, registration.type.rawValue, nil, nil, registration.port, list)
        if rc >= 0 { rc = Avahi.c.avahi_entry_group_commit(raw) }
        guard rc >= 0 else { throw MDNSError.avahi(rc, "cannot publish \"\(name)\" (\(registration.type))") }
    }

    /// Replaces the TXT record of the service `name` in place (no new probing; Avahi announces it).
    /// - Throws: ``MDNSError`` when Avahi refuses.
    func updateTXT(_ registration: ServiceRegistration, as name: String) throws(MDNSError) {
        dispatchPrecondition(condition: .onQueue(client.poll.queue))
        let list = Self.stringList(registration.txt)
        defer { Avahi.c.avahi_string_list_free(list) }
        let rc = Avahi.c.avahi_entry_group_update_service_txt_strlst(
            raw, AvahiIfIndex(tbrd_avahi_if_unspec), AvahiProtocol(tbrd_avahi_proto_unspec), AvahiPublishFlags(rawValue: 0),
            name, registration.type.rawValue, nil, list)
        guard rc >= 0 else { throw MDNSError.avahi(rc, "cannot update the TXT record of \"\(name)\" (\(registration.type))") }
    }

    /// `txt` (DNS wire format, our own record) as an Avahi string list; nil (an empty record) when empty.
    private static func stringList(_ txt: [UInt8]) -> UnsafeMutablePointer<AvahiStringList>? {
        guard !txt.isEmpty else { return nil }
        var list: UnsafeMutablePointer<AvahiStringList>?
        let rc = txt.withUnsafeBytes { Avahi.c.avahi_string_list_parse($0.baseAddress, $0.count, &list) }
        return rc < 0 ? nil : list
    }

    deinit {
        dispatchPrecondition(condition: .onQueue(client.poll.queue))
        _ = Avahi.c.avahi_entry_group_free(raw)
    }
}
