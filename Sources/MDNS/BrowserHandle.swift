internal import CAvahiClient
internal import Dispatch

/// What a service browser reported, copied out of Avahi's callback.
enum BrowserInput: Sendable {
    case found(name: String, domain: String, interface: Int32, ipProtocol: Int32)
    case removed(name: String, domain: String, interface: Int32, ipProtocol: Int32)
    case allForNow
    case failed(code: Int32)
}

/// Owns one `AvahiServiceBrowser` (every interface, IPv4 and IPv6, the default domain). Keeps its
/// client alive; freed on the client's queue.
final class BrowserHandle: @unchecked Sendable {
    // @unchecked: `raw` is only used on the client's queue.
    let raw: OpaquePointer
    let client: ClientHandle
    let context: CallbackContext

    private init(raw: OpaquePointer, client: ClientHandle, context: CallbackContext) {
        self.raw = raw
        self.client = client
        self.context = context
    }

    /// `avahi_service_browser_new` for `type`; events are posted with `context`'s token.
    /// - Throws: ``MDNSError`` when avahi-daemon refuses.
    static func open(client: ClientHandle, type: ServiceType, context: CallbackContext) throws(MDNSError) -> BrowserHandle {
        dispatchPrecondition(condition: .onQueue(client.poll.queue))
        let raw = Avahi.c.avahi_service_browser_new(
            client.raw, AvahiIfIndex(tbrd_avahi_if_unspec), AvahiProtocol(tbrd_avahi_proto_unspec), type.rawValue, nil,
            AvahiLookupFlags(rawValue: 0),
            { browser, interface, ipProtocol, event, name, _, domain, _, userdata in
                guard let context = CallbackContext.from(userdata) else { return }
                let token = context.token
                let input: BrowserInput
                switch event {
                case AVAHI_BROWSER_NEW, AVAHI_BROWSER_REMOVE:
                    guard let name, let domain else { return }
                    let (n, d) = (String(cString: name), String(cString: domain))
                    input = event == AVAHI_BROWSER_NEW
                        ? .found(name: n, domain: d, interface: interface, ipProtocol: ipProtocol)
                        : .removed(name: n, domain: d, interface: interface, ipProtocol: ipProtocol)
                case AVAHI_BROWSER_ALL_FOR_NOW:
                    input = .allForNow
                case AVAHI_BROWSER_FAILURE:
                    let client = browser.flatMap { Avahi.c.avahi_service_browser_get_client($0) }
                    input = .failed(code: client.map { Avahi.c.avahi_client_errno($0) } ?? -1)
                default:
                    return
                }
                context.post { $0.browserEvent(token: token, input) }
            },
            context.userdata)
        guard let raw else { throw MDNSError.avahi(Avahi.c.avahi_client_errno(client.raw), "cannot browse for \(type)") }
        return BrowserHandle(raw: raw, client: client, context: context)
    }

    deinit {
        dispatchPrecondition(condition: .onQueue(client.poll.queue))
        _ = Avahi.c.avahi_service_browser_free(raw)
    }
}
