internal import CAvahiClient
internal import TBRFoundation

/// libavahi-client, opened with `dlopen` when the first client is created rather than linked: loading
/// it costs every process that links it (every `tbrctl` command) a fraction of a millisecond, and only
/// tbrd, `otbr-sim --mdns` and `tbrctl discover` use it. The library is opened and every function MDNS
/// calls resolved at once, the first time a client is made; a machine without the library, or with one
/// that lacks a function, gets an ``MDNSError`` naming the soname and the function.
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

        /// Resolves every function from `library` (libavahi-client and libavahi-common, which it brings).
        /// - Throws: ``SharedLibraryError`` naming the first function `library` lacks.
        init(_ library: SharedLibrary) throws(SharedLibraryError) {
            avahi_address_snprint = try library.function("avahi_address_snprint")
            avahi_alternative_service_name = try library.function("avahi_alternative_service_name")
            avahi_client_errno = try library.function("avahi_client_errno")
            avahi_client_free = try library.function("avahi_client_free")
            avahi_client_get_host_name_fqdn = try library.function("avahi_client_get_host_name_fqdn")
            avahi_client_get_state = try library.function("avahi_client_get_state")
            avahi_client_new = try library.function("avahi_client_new")
            avahi_entry_group_add_service_strlst = try library.function("avahi_entry_group_add_service_strlst")
            avahi_entry_group_commit = try library.function("avahi_entry_group_commit")
            avahi_entry_group_free = try library.function("avahi_entry_group_free")
            avahi_entry_group_get_client = try library.function("avahi_entry_group_get_client")
            avahi_entry_group_new = try library.function("avahi_entry_group_new")
            avahi_entry_group_reset = try library.function("avahi_entry_group_reset")
            avahi_entry_group_update_service_txt_strlst = try library.function("avahi_entry_group_update_service_txt_strlst")
            avahi_free = try library.function("avahi_free")
            avahi_service_browser_free = try library.function("avahi_service_browser_free")
            avahi_service_browser_get_client = try library.function("avahi_service_browser_get_client")
            avahi_service_browser_new = try library.function("avahi_service_browser_new")
            avahi_service_resolver_free = try library.function("avahi_service_resolver_free")
            avahi_service_resolver_get_client = try library.function("avahi_service_resolver_get_client")
            avahi_service_resolver_new = try library.function("avahi_service_resolver_new")
            avahi_strerror = try library.function("avahi_strerror")
            avahi_string_list_free = try library.function("avahi_string_list_free")
            avahi_string_list_parse = try library.function("avahi_string_list_parse")
            avahi_string_list_serialize = try library.function("avahi_string_list_serialize")
        }
    }

    /// The sonames tried: the one Debian's `libavahi-client3` ships (Debian 12: Avahi 0.8), which brings
    /// `libavahi-common.so.3`.
    static let libraryNames = ["libavahi-client.so.3"]

    /// libavahi-client and every function MDNS calls, loaded on first use (a lazy, thread-safe
    /// `static let`): the process-wide library, never unloaded.
    private static let loaded = load(libraryNames)

    /// Opens the first of `names` that loads and resolves every function from it.
    /// - Returns: the functions, or an ``MDNSError`` naming the sonames tried or the missing function.
    static func load(_ names: [String]) -> Result<API, MDNSError> {
        do {
            return .success(try API(try SharedLibrary.open(names)))
        } catch {
            return .failure(MDNSError.library("\(error) (" + (error.symbol == nil ? "install libavahi-client3" : "its Avahi is not one tbrd can use") + ")"))
        }
    }

    /// Loads the library and its functions if that is not yet done.
    /// - Throws: ``MDNSError`` naming the library or the function when that fails.
    static func load() throws(MDNSError) { _ = try loaded.get() }

    /// The loaded functions. Only used once an Avahi object exists, which ``load()`` preceded.
    static let c: API = {
        guard case .success(let functions) = loaded else { preconditionFailure("libavahi-client used before it was loaded") }
        return functions
    }()
}
