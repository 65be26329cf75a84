internal import CAvahiClient
internal import Dispatch

/// Owns one `AvahiClient` (a private D-Bus connection to avahi-daemon on the system bus) and the poll
/// it runs on. Confined to the client's queue: created, used and freed there.
final class ClientHandle: @unchecked Sendable {
    // @unchecked: `raw` is only used on `poll.queue` (the MDNSClient actor's executor).
    let raw: OpaquePointer
    let poll: DispatchPoll
    let context: CallbackContext

    private init(raw: OpaquePointer, poll: DispatchPoll, context: CallbackContext) {
        self.raw = raw
        self.poll = poll
        self.context = context
    }

    /// `avahi_client_new` with `AVAHI_CLIENT_NO_FAIL`: when avahi-daemon is not running the client
    /// waits for it (state `CONNECTING`) instead of failing. State changes are posted to the client actor
    /// with `context`'s token.
    /// - Throws: ``MDNSError`` when libavahi-client cannot be loaded or the system bus cannot be reached.
    static func open(poll: DispatchPoll, context: CallbackContext) throws(MDNSError) -> ClientHandle {
        dispatchPrecondition(condition: .onQueue(poll.queue))
        try Avahi.load()
        var error: Int32 = 0
        let raw = Avahi.c.avahi_client_new(
            poll.api, AVAHI_CLIENT_NO_FAIL,
            { client, state, userdata in
                guard let context = CallbackContext.from(userdata) else { return }
                let token = context.token
                let code = state == AVAHI_CLIENT_FAILURE ? client.map { Avahi.c.avahi_client_errno($0) } ?? 0 : 0
                let value = state.rawValue
                context.post { $0.clientStateChanged(token: token, state: value, failure: code) }
            },
            context.userdata, &error)
        guard let raw else { throw MDNSError.avahi(error, "cannot connect to avahi-daemon") }
        return ClientHandle(raw: raw, poll: poll, context: context)
    }

    /// The client's last error (`avahi_client_errno`).
    var errorCode: Int32 { Avahi.c.avahi_client_errno(raw) }

    /// The client's state now (`AvahiClientState` raw value).
    var state: UInt32 { Avahi.c.avahi_client_get_state(raw).rawValue }

    /// The host name avahi-daemon publishes, e.g. `otbr.local`.
    var hostNameFQDN: String? { Avahi.c.avahi_client_get_host_name_fqdn(raw).map { String(cString: $0) } }

    deinit {
        dispatchPrecondition(condition: .onQueue(poll.queue))
        Avahi.c.avahi_client_free(raw)
    }
}
