internal import CDBus
internal import TBRFoundation

/// libdbus-1, opened with `dlopen` the first time a connection needs it rather than linked.
///
/// Linking it costs every process that starts about 0.7 ms: libdbus brings libsystemd and, through it,
/// libgcrypt, libgpg-error, liblzma, libzstd, liblz4 and libcap, and most `tbrctl` commands (help,
/// `--version`, datasets, Matter codes, `epskc check`) never talk to a bus. ``Connection`` checks
/// ``available`` before anything else, so a machine without the library gets a ``DBusError`` naming it;
/// after that every function below is there (each is libdbus 1.x API since 1.0 or 1.2, looked up on
/// first use and never unloaded). The names are libdbus's without the `dbus_` prefix.
enum LibDBus {
    /// The sonames tried (Debian 12 ships `libdbus-1.so.3`).
    static let libraryNames = ["libdbus-1.so.3", "libdbus-1.so"]

    /// The library, opened once per process (a lazy, thread-safe `static let`); never closed.
    private static let library: Result<SharedLibrary, DBusError> = {
        do { return .success(try SharedLibrary.open(libraryNames)) } catch {
            return .failure(DBusError(.failed, "\(error); install libdbus-1-3"))
        }
    }()

    /// Opens libdbus if it is not yet open.
    /// - Throws: ``DBusError`` naming the library when it cannot be loaded.
    static func available() throws(DBusError) { _ = try library.get() }

    /// `name` from the loaded library. Only reached after ``available()`` succeeded; a function missing
    /// from a library that loaded is a broken installation and traps with its name.
    private static func symbol<T>(_ name: String) -> T {
        guard case .success(let library) = library else { preconditionFailure("libdbus is used before LibDBus.available() succeeded") }
        guard let function = library.symbol(name, as: T.self) else {
            preconditionFailure("libdbus-1 has no \(name): libdbus 1.12 or later is needed")
        }
        return function
    }

    static let bus_get_private: tbrd_dbus_bus_get_private_fn = symbol("dbus_bus_get_private")
    static let bus_get_unique_name: tbrd_dbus_bus_get_unique_name_fn = symbol("dbus_bus_get_unique_name")
    static let bus_register: tbrd_dbus_bus_register_fn = symbol("dbus_bus_register")
    static let connection_add_filter: tbrd_dbus_connection_add_filter_fn = symbol("dbus_connection_add_filter")
    static let connection_close: tbrd_dbus_connection_close_fn = symbol("dbus_connection_close")
    static let connection_dispatch: tbrd_dbus_connection_dispatch_fn = symbol("dbus_connection_dispatch")
    static let connection_flush: tbrd_dbus_connection_flush_fn = symbol("dbus_connection_flush")
    static let connection_get_dispatch_status: tbrd_dbus_connection_get_dispatch_status_fn = symbol("dbus_connection_get_dispatch_status")
    static let connection_get_is_connected: tbrd_dbus_connection_get_is_connected_fn = symbol("dbus_connection_get_is_connected")
    static let connection_open_private: tbrd_dbus_connection_open_private_fn = symbol("dbus_connection_open_private")
    static let connection_send: tbrd_dbus_connection_send_fn = symbol("dbus_connection_send")
    static let connection_set_dispatch_status_function: tbrd_dbus_connection_set_dispatch_status_function_fn = symbol("dbus_connection_set_dispatch_status_function")
    static let connection_set_exit_on_disconnect: tbrd_dbus_connection_set_exit_on_disconnect_fn = symbol("dbus_connection_set_exit_on_disconnect")
    static let connection_set_timeout_functions: tbrd_dbus_connection_set_timeout_functions_fn = symbol("dbus_connection_set_timeout_functions")
    static let connection_set_watch_functions: tbrd_dbus_connection_set_watch_functions_fn = symbol("dbus_connection_set_watch_functions")
    static let connection_unref: tbrd_dbus_connection_unref_fn = symbol("dbus_connection_unref")
    static let error_free: tbrd_dbus_error_free_fn = symbol("dbus_error_free")
    static let error_init: tbrd_dbus_error_init_fn = symbol("dbus_error_init")
    static let free: tbrd_dbus_free_fn = symbol("dbus_free")
    static let message_get_destination: tbrd_dbus_message_get_destination_fn = symbol("dbus_message_get_destination")
    static let message_get_error_name: tbrd_dbus_message_get_error_name_fn = symbol("dbus_message_get_error_name")
    static let message_get_interface: tbrd_dbus_message_get_interface_fn = symbol("dbus_message_get_interface")
    static let message_get_member: tbrd_dbus_message_get_member_fn = symbol("dbus_message_get_member")
    static let message_get_no_reply: tbrd_dbus_message_get_no_reply_fn = symbol("dbus_message_get_no_reply")
    static let message_get_path: tbrd_dbus_message_get_path_fn = symbol("dbus_message_get_path")
    static let message_get_reply_serial: tbrd_dbus_message_get_reply_serial_fn = symbol("dbus_message_get_reply_serial")
    static let message_get_sender: tbrd_dbus_message_get_sender_fn = symbol("dbus_message_get_sender")
    static let message_get_serial: tbrd_dbus_message_get_serial_fn = symbol("dbus_message_get_serial")
    static let message_get_signature: tbrd_dbus_message_get_signature_fn = symbol("dbus_message_get_signature")
    static let message_get_type: tbrd_dbus_message_get_type_fn = symbol("dbus_message_get_type")
    static let message_iter_abandon_container: tbrd_dbus_message_iter_abandon_container_fn = symbol("dbus_message_iter_abandon_container")
    static let message_iter_append_basic: tbrd_dbus_message_iter_append_basic_fn = symbol("dbus_message_iter_append_basic")
    static let message_iter_append_fixed_array: tbrd_dbus_message_iter_append_fixed_array_fn = symbol("dbus_message_iter_append_fixed_array")
    static let message_iter_close_container: tbrd_dbus_message_iter_close_container_fn = symbol("dbus_message_iter_close_container")
    static let message_iter_get_arg_type: tbrd_dbus_message_iter_get_arg_type_fn = symbol("dbus_message_iter_get_arg_type")
    static let message_iter_get_basic: tbrd_dbus_message_iter_get_basic_fn = symbol("dbus_message_iter_get_basic")
    static let message_iter_get_fixed_array: tbrd_dbus_message_iter_get_fixed_array_fn = symbol("dbus_message_iter_get_fixed_array")
    static let message_iter_get_signature: tbrd_dbus_message_iter_get_signature_fn = symbol("dbus_message_iter_get_signature")
    static let message_iter_init: tbrd_dbus_message_iter_init_fn = symbol("dbus_message_iter_init")
    static let message_iter_init_append: tbrd_dbus_message_iter_init_append_fn = symbol("dbus_message_iter_init_append")
    static let message_iter_next: tbrd_dbus_message_iter_next_fn = symbol("dbus_message_iter_next")
    static let message_iter_open_container: tbrd_dbus_message_iter_open_container_fn = symbol("dbus_message_iter_open_container")
    static let message_iter_recurse: tbrd_dbus_message_iter_recurse_fn = symbol("dbus_message_iter_recurse")
    static let message_new: tbrd_dbus_message_new_fn = symbol("dbus_message_new")
    static let message_new_method_call: tbrd_dbus_message_new_method_call_fn = symbol("dbus_message_new_method_call")
    static let message_new_signal: tbrd_dbus_message_new_signal_fn = symbol("dbus_message_new_signal")
    static let message_set_destination: tbrd_dbus_message_set_destination_fn = symbol("dbus_message_set_destination")
    static let message_set_error_name: tbrd_dbus_message_set_error_name_fn = symbol("dbus_message_set_error_name")
    static let message_set_no_reply: tbrd_dbus_message_set_no_reply_fn = symbol("dbus_message_set_no_reply")
    static let message_set_reply_serial: tbrd_dbus_message_set_reply_serial_fn = symbol("dbus_message_set_reply_serial")
    static let message_unref: tbrd_dbus_message_unref_fn = symbol("dbus_message_unref")
    static let threads_init_default: tbrd_dbus_threads_init_default_fn = symbol("dbus_threads_init_default")
    static let timeout_get_data: tbrd_dbus_timeout_get_data_fn = symbol("dbus_timeout_get_data")
    static let timeout_get_enabled: tbrd_dbus_timeout_get_enabled_fn = symbol("dbus_timeout_get_enabled")
    static let timeout_get_interval: tbrd_dbus_timeout_get_interval_fn = symbol("dbus_timeout_get_interval")
    static let timeout_handle: tbrd_dbus_timeout_handle_fn = symbol("dbus_timeout_handle")
    static let timeout_set_data: tbrd_dbus_timeout_set_data_fn = symbol("dbus_timeout_set_data")
    static let watch_get_data: tbrd_dbus_watch_get_data_fn = symbol("dbus_watch_get_data")
    static let watch_get_enabled: tbrd_dbus_watch_get_enabled_fn = symbol("dbus_watch_get_enabled")
    static let watch_get_flags: tbrd_dbus_watch_get_flags_fn = symbol("dbus_watch_get_flags")
    static let watch_get_unix_fd: tbrd_dbus_watch_get_unix_fd_fn = symbol("dbus_watch_get_unix_fd")
    static let watch_handle: tbrd_dbus_watch_handle_fn = symbol("dbus_watch_handle")
    static let watch_set_data: tbrd_dbus_watch_set_data_fn = symbol("dbus_watch_set_data")

    /// A libdbus `DBusError` set up for a call that may fill it (`dbus_error_init`).
    static func newError() -> DBusError_C {
        var error = DBusError_C()
        error_init(&error)
        return error
    }
}
