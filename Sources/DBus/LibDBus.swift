internal import CDBus
internal import TBRFoundation

/// libdbus-1, opened with `dlopen` the first time a connection needs it rather than linked.
///
/// Linking it costs every process that starts about 0.7 ms: libdbus brings libsystemd and, through it,
/// libgcrypt, libgpg-error, liblzma, libzstd, liblz4 and libcap, and most `tbrctl` commands (help,
/// `--version`, datasets, Matter codes, `epskc check`) never talk to a bus. Every connection
/// (``Connection``, ``BlockingConnection``) is opened by ``openPrivate(_:)``, which calls
/// ``available()`` before anything else: it opens the library and resolves every function below at
/// once, so a machine without the library, or with one that lacks a function, gets a ``DBusError``
/// naming the soname and the function instead of a trap at the first call that needs it. After that
/// ``c`` holds them all, for the life of the process. The names are libdbus's without the `dbus_`
/// prefix.
enum LibDBus {
    /// The sonames tried: the one Debian's `libdbus-1-3` ships (Debian 12: libdbus 1.14).
    static let libraryNames = ["libdbus-1.so.3"]

    /// The functions the DBus module calls, resolved from the loaded library.
    struct Functions: @unchecked Sendable {
        // @unchecked: C function pointers from a library that is never unloaded; immutable.
        let bus_get_private: tbrd_dbus_bus_get_private_fn
        let bus_get_unique_name: tbrd_dbus_bus_get_unique_name_fn
        let bus_register: tbrd_dbus_bus_register_fn
        let connection_add_filter: tbrd_dbus_connection_add_filter_fn
        let connection_close: tbrd_dbus_connection_close_fn
        let connection_dispatch: tbrd_dbus_connection_dispatch_fn
        let connection_flush: tbrd_dbus_connection_flush_fn
        let connection_get_dispatch_status: tbrd_dbus_connection_get_dispatch_status_fn
        let connection_get_is_connected: tbrd_dbus_connection_get_is_connected_fn
        let connection_open_private: tbrd_dbus_connection_open_private_fn
        let connection_send: tbrd_dbus_connection_send_fn
        let connection_send_with_reply: tbrd_dbus_connection_send_with_reply_fn
        let connection_set_dispatch_status_function: tbrd_dbus_connection_set_dispatch_status_function_fn
        let connection_set_exit_on_disconnect: tbrd_dbus_connection_set_exit_on_disconnect_fn
        let connection_set_timeout_functions: tbrd_dbus_connection_set_timeout_functions_fn
        let connection_set_watch_functions: tbrd_dbus_connection_set_watch_functions_fn
        let connection_unref: tbrd_dbus_connection_unref_fn
        let error_free: tbrd_dbus_error_free_fn
        let error_init: tbrd_dbus_error_init_fn
        let free: tbrd_dbus_free_fn
        let message_get_destination: tbrd_dbus_message_get_destination_fn
        let message_get_error_name: tbrd_dbus_message_get_error_name_fn
        let message_get_interface: tbrd_dbus_message_get_interface_fn
        let message_get_member: tbrd_dbus_message_get_member_fn
        let message_get_no_reply: tbrd_dbus_message_get_no_reply_fn
        let message_get_path: tbrd_dbus_message_get_path_fn
        let message_get_reply_serial: tbrd_dbus_message_get_reply_serial_fn
        let message_get_sender: tbrd_dbus_message_get_sender_fn
        let message_get_serial: tbrd_dbus_message_get_serial_fn
        let message_get_signature: tbrd_dbus_message_get_signature_fn
        let message_get_type: tbrd_dbus_message_get_type_fn
        let message_iter_abandon_container: tbrd_dbus_message_iter_abandon_container_fn
        let message_iter_append_basic: tbrd_dbus_message_iter_append_basic_fn
        let message_iter_append_fixed_array: tbrd_dbus_message_iter_append_fixed_array_fn
        let message_iter_close_container: tbrd_dbus_message_iter_close_container_fn
        let message_iter_get_arg_type: tbrd_dbus_message_iter_get_arg_type_fn
        let message_iter_get_basic: tbrd_dbus_message_iter_get_basic_fn
        let message_iter_get_fixed_array: tbrd_dbus_message_iter_get_fixed_array_fn
        let message_iter_get_signature: tbrd_dbus_message_iter_get_signature_fn
        let message_iter_init: tbrd_dbus_message_iter_init_fn
        let message_iter_init_append: tbrd_dbus_message_iter_init_append_fn
        let message_iter_next: tbrd_dbus_message_iter_next_fn
        let message_iter_open_container: tbrd_dbus_message_iter_open_container_fn
        let message_iter_recurse: tbrd_dbus_message_iter_recurse_fn
        let message_new: tbrd_dbus_message_new_fn
        let message_new_method_call: tbrd_dbus_message_new_method_call_fn
        let message_new_signal: tbrd_dbus_message_new_signal_fn
        let message_set_destination: tbrd_dbus_message_set_destination_fn
        let message_set_error_name: tbrd_dbus_message_set_error_name_fn
        let message_set_no_reply: tbrd_dbus_message_set_no_reply_fn
        let message_set_reply_serial: tbrd_dbus_message_set_reply_serial_fn
        let message_unref: tbrd_dbus_message_unref_fn
        let pending_call_block: tbrd_dbus_pending_call_block_fn
        let pending_call_steal_reply: tbrd_dbus_pending_call_steal_reply_fn
        let pending_call_unref: tbrd_dbus_pending_call_unref_fn
        let threads_init_default: tbrd_dbus_threads_init_default_fn
        let timeout_get_data: tbrd_dbus_timeout_get_data_fn
        let timeout_get_enabled: tbrd_dbus_timeout_get_enabled_fn
        let timeout_get_interval: tbrd_dbus_timeout_get_interval_fn
        let timeout_handle: tbrd_dbus_timeout_handle_fn
        let timeout_set_data: tbrd_dbus_timeout_set_data_fn
        let watch_get_data: tbrd_dbus_watch_get_data_fn
        let watch_get_enabled: tbrd_dbus_watch_get_enabled_fn
        let watch_get_flags: tbrd_dbus_watch_get_flags_fn
        let watch_get_unix_fd: tbrd_dbus_watch_get_unix_fd_fn
        let watch_handle: tbrd_dbus_watch_handle_fn
        let watch_set_data: tbrd_dbus_watch_set_data_fn

        /// Resolves every function from `library`.
        /// - Throws: ``SharedLibraryError`` naming the first function `library` lacks.
        init(_ library: SharedLibrary) throws(SharedLibraryError) {
            bus_get_private = try library.function("dbus_bus_get_private")
            bus_get_unique_name = try library.function("dbus_bus_get_unique_name")
            bus_register = try library.function("dbus_bus_register")
            connection_add_filter = try library.function("dbus_connection_add_filter")
            connection_close = try library.function("dbus_connection_close")
            connection_dispatch = try library.function("dbus_connection_dispatch")
            connection_flush = try library.function("dbus_connection_flush")
            connection_get_dispatch_status = try library.function("dbus_connection_get_dispatch_status")
            connection_get_is_connected = try library.function("dbus_connection_get_is_connected")
            connection_open_private = try library.function("dbus_connection_open_private")
            connection_send = try library.function("dbus_connection_send")
            connection_send_with_reply = try library.function("dbus_connection_send_with_reply")
            connection_set_dispatch_status_function = try library.function("dbus_connection_set_dispatch_status_function")
            connection_set_exit_on_disconnect = try library.function("dbus_connection_set_exit_on_disconnect")
            connection_set_timeout_functions = try library.function("dbus_connection_set_timeout_functions")
            connection_set_watch_functions = try library.function("dbus_connection_set_watch_functions")
            connection_unref = try library.function("dbus_connection_unref")
            error_free = try library.function("dbus_error_free")
            error_init = try library.function("dbus_error_init")
            free = try library.function("dbus_free")
            message_get_destination = try library.function("dbus_message_get_destination")
            message_get_error_name = try library.function("dbus_message_get_error_name")
            message_get_interface = try library.function("dbus_message_get_interface")
            message_get_member = try library.function("dbus_message_get_member")
            message_get_no_reply = try library.function("dbus_message_get_no_reply")
            message_get_path = try library.function("dbus_message_get_path")
            message_get_reply_serial = try library.function("dbus_message_get_reply_serial")
            message_get_sender = try library.function("dbus_message_get_sender")
            message_get_serial = try library.function("dbus_message_get_serial")
            message_get_signature = try library.function("dbus_message_get_signature")
            message_get_type = try library.function("dbus_message_get_type")
            message_iter_abandon_container = try library.function("dbus_message_iter_abandon_container")
            message_iter_append_basic = try library.function("dbus_message_iter_append_basic")
            message_iter_append_fixed_array = try library.function("dbus_message_iter_append_fixed_array")
            message_iter_close_container = try library.function("dbus_message_iter_close_container")
            message_iter_get_arg_type = try library.function("dbus_message_iter_get_arg_type")
            message_iter_get_basic = try library.function("dbus_message_iter_get_basic")
            message_iter_get_fixed_array = try library.function("dbus_message_iter_get_fixed_array")
            message_iter_get_signature = try library.function("dbus_message_iter_get_signature")
            message_iter_init = try library.function("dbus_message_iter_init")
            message_iter_init_append = try library.function("dbus_message_iter_init_append")
            message_iter_next = try library.function("dbus_message_iter_next")
            message_iter_open_container = try library.function("dbus_message_iter_open_container")
            message_iter_recurse = try library.function("dbus_message_iter_recurse")
            message_new = try library.function("dbus_message_new")
            message_new_method_call = try library.function("dbus_message_new_method_call")
            message_new_signal = try library.function("dbus_message_new_signal")
            message_set_destination = try library.function("dbus_message_set_destination")
            message_set_error_name = try library.function("dbus_message_set_error_name")
            message_set_no_reply = try library.function("dbus_message_set_no_reply")
            message_set_reply_serial = try library.function("dbus_message_set_reply_serial")
            message_unref = try library.function("dbus_message_unref")
            pending_call_block = try library.function("dbus_pending_call_block")
            pending_call_steal_reply = try library.function("dbus_pending_call_steal_reply")
            pending_call_unref = try library.function("dbus_pending_call_unref")
            threads_init_default = try library.function("dbus_threads_init_default")
            timeout_get_data = try library.function("dbus_timeout_get_data")
            timeout_get_enabled = try library.function("dbus_timeout_get_enabled")
            timeout_get_interval = try library.function("dbus_timeout_get_interval")
            timeout_handle = try library.function("dbus_timeout_handle")
            timeout_set_data = try library.function("dbus_timeout_set_data")
            watch_get_data = try library.function("dbus_watch_get_data")
            watch_get_enabled = try library.function("dbus_watch_get_enabled")
            watch_get_flags = try library.function("dbus_watch_get_flags")
            watch_get_unix_fd = try library.function("dbus_watch_get_unix_fd")
            watch_handle = try library.function("dbus_watch_handle")
            watch_set_data = try library.function("dbus_watch_set_data")
        }
    }

    /// The library and its functions, loaded once per process (a lazy, thread-safe `static let`); never
    /// unloaded.
    private static let loaded = load(libraryNames)

    /// Opens the first of `names` that loads and resolves every function from it.
    /// - Returns: the functions, or a ``DBusError`` naming the sonames tried or the missing function.
    static func load(_ names: [String]) -> Result<Functions, DBusError> {
        do {
            return .success(try Functions(try SharedLibrary.open(names)))
        } catch {
            let remedy = error.symbol == nil ? "install libdbus-1-3" : "its libdbus is not one tbrd can use"
            return .failure(DBusError(.failed, "\(error); \(remedy)"))
        }
    }

    /// Opens libdbus and resolves its functions if that is not yet done.
    /// - Throws: ``DBusError`` naming the library or the function when that fails.
    static func available() throws(DBusError) { _ = try loaded.get() }

    /// The functions. Only reached after ``available()`` succeeded (every libdbus object comes from a
    /// connection, which calls it first).
    static let c: Functions = {
        guard case .success(let functions) = loaded else { preconditionFailure("libdbus is used before LibDBus.available() succeeded") }
        return functions
    }()

    /// A libdbus `DBusError` set up for a call that may fill it (`dbus_error_init`).
    static func newError() -> DBusError_C {
        var error = DBusError_C()
        c.error_init(&error)
        return error
    }
}
