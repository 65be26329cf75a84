internal import CAvahiClient
internal import TBRFoundation

/// libavahi-client, opened with `dlopen` when the first client is created rather than linked: loading
/// it costs every process that links it (every `tbrctl` command) a fraction of a millisecond, and only
/// tbrd, `otbr-sim --mdns` and `tbrctl discover` use it. Its functions are looked up once per process;
/// a machine without the library gets an ``MDNSError`` naming it.
enum Avahi {
    /// The functions MDNS calls, resolved from the loaded library (named as in C).
    struct API: @unchecked Sendable {
        // @unchecked: C function pointers from a library that is never unloaded; immutable.
        let avahi_address_snprint: tbrd_avahi_address_snprint
        let avahi_alternative_service_name: tbrd_avahi_alternative_service_name
        let avahi_client_errno: tbrd_avahi_client_errno
        let avahi_client_free: tbrd_avahi_client_free
        let avahi_client_get_host_name_fqdn: tbrd_avahi_client_get_host_name_fqdn
        let avahi_client_get_state: tbrd_avahi_client_get_state
        let avahi_client_new: tbrd_avahi_client_new
        let avahi_entry_group_add_service_strlst: tbrd_avahi_entry_group_add_service_strlst
        let avahi_entry_group_commit: tbrd_avahi_entry_group_commit
        let avahi_entry_group_free: tbrd_avahi_entry_group_free
        let avahi_entry_group_get_client: tbrd_avahi_entry_group_get_client
        let avahi_entry_group_new: tbrd_avahi_entry_group_new
        let avahi_entry_group_reset: tbrd_avahi_entry_group_reset
        let avahi_entry_group_update_service_txt_strlst: tbrd_avahi_entry_group_update_service_txt_strlst
        let avahi_free: tbrd_avahi_free
        let avahi_service_browser_free: tbrd_avahi_service_browser_free
        let avahi_service_browser_get_client: tbrd_avahi_service_browser_get_client
        let avahi_service_browser_new: tbrd_avahi_service_browser_new
        let avahi_service_resolver_free: tbrd_avahi_service_resolver_free
        let avahi_service_resolver_get_client: tbrd_avahi_service_resolver_get_client
        let avahi_service_resolver_new: tbrd_avahi_service_resolver_new
        let avahi_strerror: tbrd_avahi_strerror
        let avahi_string_list_free: tbrd_avahi_string_list_free
        let avahi_string_list_parse: tbrd_avahi_string_list_parse
        let avahi_string_list_serialize: tbrd_avahi_string_list_serialize
    }

    /// The soname tried (Debian 12: `libavahi-client.so.3`, which brings `libavahi-common.so.3`).
    static let libraryNames = ["libavahi-client.so.3", "libavahi-client.so"]

    /// libavahi-client's functions, loaded on first use (a lazy, thread-safe `static let`): the
    /// process-wide library, never unloaded.
    static let api: Result<API, MDNSError> = load()

    /// Loads the library if it is not yet.
    /// - Throws: ``MDNSError`` when libavahi-client or one of its functions cannot be found.
    static func load() throws(MDNSError) { _ = try api.get() }

    /// The loaded functions. Only called once an Avahi object exists, which ``load()`` preceded.
    static var c: API {
        guard case .success(let functions) = api else { preconditionFailure("libavahi-client used before it was loaded") }
        return functions
    }

    private static func load() -> Result<API, MDNSError> {
        let library: SharedLibrary
        do { library = try SharedLibrary.open(libraryNames) } catch {
            return .failure(MDNSError.library("\(error) (install libavahi-client3)"))
        }
        func symbol<T>(_ name: String, as _: T.Type) throws(MDNSError) -> T {
            guard let function = library.symbol(name, as: T.self) else { throw MDNSError.library("libavahi-client has no \(name)") }
            return function
        }
        do throws(MDNSError) {
            return .success(
                API(
                    avahi_address_snprint: try symbol("avahi_address_snprint", as: tbrd_avahi_address_snprint.self),
                    avahi_alternative_service_name: try symbol("avahi_alternative_service_name", as: tbrd_avahi_alternative_service_name.self),
                    avahi_client_errno: try symbol("avahi_client_errno", as: tbrd_avahi_client_errno.self),
                    avahi_client_free: try symbol("avahi_client_free", as: tbrd_avahi_client_free.self),
                    avahi_client_get_host_name_fqdn: try symbol("avahi_client_get_host_name_fqdn", as: tbrd_avahi_client_get_host_name_fqdn.self),
                    avahi_client_get_state: try symbol("avahi_client_get_state", as: tbrd_avahi_client_get_state.self),
                    avahi_client_new: try symbol("avahi_client_new", as: tbrd_avahi_client_new.self),
                    avahi_entry_group_add_service_strlst: try symbol("avahi_entry_group_add_service_strlst", as: tbrd_avahi_entry_group_add_service_strlst.self),
                    avahi_entry_group_commit: try symbol("avahi_entry_group_commit", as: tbrd_avahi_entry_group_commit.self),
                    avahi_entry_group_free: try symbol("avahi_entry_group_free", as: tbrd_avahi_entry_group_free.self),
                    avahi_entry_group_get_client: try symbol("avahi_entry_group_get_client", as: tbrd_avahi_entry_group_get_client.self),
                    avahi_entry_group_new: try symbol("avahi_entry_group_new", as: tbrd_avahi_entry_group_new.self),
                    avahi_entry_group_reset: try symbol("avahi_entry_group_reset", as: tbrd_avahi_entry_group_reset.self),
                    avahi_entry_group_update_service_txt_strlst: try symbol("avahi_entry_group_update_service_txt_strlst", as: tbrd_avahi_entry_group_update_service_txt_strlst.self),
                    avahi_free: try symbol("avahi_free", as: tbrd_avahi_free.self),
                    avahi_service_browser_free: try symbol("avahi_service_browser_free", as: tbrd_avahi_service_browser_free.self),
                    avahi_service_browser_get_client: try symbol("avahi_service_browser_get_client", as: tbrd_avahi_service_browser_get_client.self),
                    avahi_service_browser_new: try symbol("avahi_service_browser_new", as: tbrd_avahi_service_browser_new.self),
                    avahi_service_resolver_free: try symbol("avahi_service_resolver_free", as: tbrd_avahi_service_resolver_free.self),
                    avahi_service_resolver_get_client: try symbol("avahi_service_resolver_get_client", as: tbrd_avahi_service_resolver_get_client.self),
                    avahi_service_resolver_new: try symbol("avahi_service_resolver_new", as: tbrd_avahi_service_resolver_new.self),
                    avahi_strerror: try symbol("avahi_strerror", as: tbrd_avahi_strerror.self),
                    avahi_string_list_free: try symbol("avahi_string_list_free", as: tbrd_avahi_string_list_free.self),
                    avahi_string_list_parse: try symbol("avahi_string_list_parse", as: tbrd_avahi_string_list_parse.self),
                    avahi_string_list_serialize: try symbol("avahi_string_list_serialize", as: tbrd_avahi_string_list_serialize.self)))
        } catch {
            return .failure(error)
        }
    }
}
