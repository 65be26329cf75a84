// C shim over libdbus-1 (Debian: libdbus-1-dev): the declarations and constants, not the library. libdbus
// is opened with dlopen the first time a connection needs it (Sources/DBus/LibDBus.swift), so that the
// commands of tbrctl that never touch the bus do not load it and libsystemd, libgcrypt, liblzma, libzstd,
// liblz4 and libcap behind it. The typedefs give the Swift side each function's exact type.
#ifndef TBRD_CDBUS_SHIM_H
#define TBRD_CDBUS_SHIM_H
#include <dbus/dbus.h>

// Type codes are macros with casts ("((int) 's')"), which Swift does not import; give them plain values.
static const int tbrd_dbus_type_invalid = DBUS_TYPE_INVALID;
static const int tbrd_dbus_type_byte = DBUS_TYPE_BYTE;
static const int tbrd_dbus_type_boolean = DBUS_TYPE_BOOLEAN;
static const int tbrd_dbus_type_int16 = DBUS_TYPE_INT16;
static const int tbrd_dbus_type_uint16 = DBUS_TYPE_UINT16;
static const int tbrd_dbus_type_int32 = DBUS_TYPE_INT32;
static const int tbrd_dbus_type_uint32 = DBUS_TYPE_UINT32;
static const int tbrd_dbus_type_int64 = DBUS_TYPE_INT64;
static const int tbrd_dbus_type_uint64 = DBUS_TYPE_UINT64;
static const int tbrd_dbus_type_double = DBUS_TYPE_DOUBLE;
static const int tbrd_dbus_type_string = DBUS_TYPE_STRING;
static const int tbrd_dbus_type_object_path = DBUS_TYPE_OBJECT_PATH;
static const int tbrd_dbus_type_signature = DBUS_TYPE_SIGNATURE;
static const int tbrd_dbus_type_unix_fd = DBUS_TYPE_UNIX_FD;
static const int tbrd_dbus_type_array = DBUS_TYPE_ARRAY;
static const int tbrd_dbus_type_variant = DBUS_TYPE_VARIANT;
static const int tbrd_dbus_type_struct = DBUS_TYPE_STRUCT;
static const int tbrd_dbus_type_dict_entry = DBUS_TYPE_DICT_ENTRY;

static const int tbrd_dbus_message_type_method_call = DBUS_MESSAGE_TYPE_METHOD_CALL;
static const int tbrd_dbus_message_type_method_return = DBUS_MESSAGE_TYPE_METHOD_RETURN;
static const int tbrd_dbus_message_type_error = DBUS_MESSAGE_TYPE_ERROR;
static const int tbrd_dbus_message_type_signal = DBUS_MESSAGE_TYPE_SIGNAL;

static const unsigned int tbrd_dbus_watch_readable = DBUS_WATCH_READABLE;
static const unsigned int tbrd_dbus_watch_writable = DBUS_WATCH_WRITABLE;
static const unsigned int tbrd_dbus_watch_error = DBUS_WATCH_ERROR;
static const unsigned int tbrd_dbus_watch_hangup = DBUS_WATCH_HANGUP;

static const unsigned int tbrd_dbus_name_flag_allow_replacement = DBUS_NAME_FLAG_ALLOW_REPLACEMENT;
static const unsigned int tbrd_dbus_name_flag_replace_existing = DBUS_NAME_FLAG_REPLACE_EXISTING;
static const unsigned int tbrd_dbus_name_flag_do_not_queue = DBUS_NAME_FLAG_DO_NOT_QUEUE;

typedef __typeof__(&dbus_bus_get_private) tbrd_dbus_bus_get_private_fn;
typedef __typeof__(&dbus_bus_get_unique_name) tbrd_dbus_bus_get_unique_name_fn;
typedef __typeof__(&dbus_bus_register) tbrd_dbus_bus_register_fn;
typedef __typeof__(&dbus_connection_add_filter) tbrd_dbus_connection_add_filter_fn;
typedef __typeof__(&dbus_connection_close) tbrd_dbus_connection_close_fn;
typedef __typeof__(&dbus_connection_dispatch) tbrd_dbus_connection_dispatch_fn;
typedef __typeof__(&dbus_connection_flush) tbrd_dbus_connection_flush_fn;
typedef __typeof__(&dbus_connection_get_dispatch_status) tbrd_dbus_connection_get_dispatch_status_fn;
typedef __typeof__(&dbus_connection_get_is_connected) tbrd_dbus_connection_get_is_connected_fn;
typedef __typeof__(&dbus_connection_open_private) tbrd_dbus_connection_open_private_fn;
typedef __typeof__(&dbus_connection_send) tbrd_dbus_connection_send_fn;
typedef __typeof__(&dbus_connection_send_with_reply) tbrd_dbus_connection_send_with_reply_fn;
typedef __typeof__(&dbus_connection_set_dispatch_status_function) tbrd_dbus_connection_set_dispatch_status_function_fn;
typedef __typeof__(&dbus_connection_set_exit_on_disconnect) tbrd_dbus_connection_set_exit_on_disconnect_fn;
typedef __typeof__(&dbus_connection_set_timeout_functions) tbrd_dbus_connection_set_timeout_functions_fn;
typedef __typeof__(&dbus_connection_set_watch_functions) tbrd_dbus_connection_set_watch_functions_fn;
typedef __typeof__(&dbus_connection_unref) tbrd_dbus_connection_unref_fn;
typedef __typeof__(&dbus_error_free) tbrd_dbus_error_free_fn;
typedef __typeof__(&dbus_error_init) tbrd_dbus_error_init_fn;
typedef __typeof__(&dbus_free) tbrd_dbus_free_fn;
typedef __typeof__(&dbus_message_get_destination) tbrd_dbus_message_get_destination_fn;
typedef __typeof__(&dbus_message_get_error_name) tbrd_dbus_message_get_error_name_fn;
typedef __typeof__(&dbus_message_get_interface) tbrd_dbus_message_get_interface_fn;
typedef __typeof__(&dbus_message_get_member) tbrd_dbus_message_get_member_fn;
typedef __typeof__(&dbus_message_get_no_reply) tbrd_dbus_message_get_no_reply_fn;
typedef __typeof__(&dbus_message_get_path) tbrd_dbus_message_get_path_fn;
typedef __typeof__(&dbus_message_get_reply_serial) tbrd_dbus_message_get_reply_serial_fn;
typedef __typeof__(&dbus_message_get_sender) tbrd_dbus_message_get_sender_fn;
typedef __typeof__(&dbus_message_get_serial) tbrd_dbus_message_get_serial_fn;
typedef __typeof__(&dbus_message_get_signature) tbrd_dbus_message_get_signature_fn;
typedef __typeof__(&dbus_message_get_type) tbrd_dbus_message_get_type_fn;
typedef __typeof__(&dbus_message_iter_abandon_container) tbrd_dbus_message_iter_abandon_container_fn;
typedef __typeof__(&dbus_message_iter_append_basic) tbrd_dbus_message_iter_append_basic_fn;
typedef __typeof__(&dbus_message_iter_append_fixed_array) tbrd_dbus_message_iter_append_fixed_array_fn;
typedef __typeof__(&dbus_message_iter_close_container) tbrd_dbus_message_iter_close_container_fn;
typedef __typeof__(&dbus_message_iter_get_arg_type) tbrd_dbus_message_iter_get_arg_type_fn;
typedef __typeof__(&dbus_message_iter_get_basic) tbrd_dbus_message_iter_get_basic_fn;
typedef __typeof__(&dbus_message_iter_get_fixed_array) tbrd_dbus_message_iter_get_fixed_array_fn;
typedef __typeof__(&dbus_message_iter_get_signature) tbrd_dbus_message_iter_get_signature_fn;
typedef __typeof__(&dbus_message_iter_init) tbrd_dbus_message_iter_init_fn;
typedef __typeof__(&dbus_message_iter_init_append) tbrd_dbus_message_iter_init_append_fn;
typedef __typeof__(&dbus_message_iter_next) tbrd_dbus_message_iter_next_fn;
typedef __typeof__(&dbus_message_iter_open_container) tbrd_dbus_message_iter_open_container_fn;
typedef __typeof__(&dbus_message_iter_recurse) tbrd_dbus_message_iter_recurse_fn;
typedef __typeof__(&dbus_message_new) tbrd_dbus_message_new_fn;
typedef __typeof__(&dbus_message_new_method_call) tbrd_dbus_message_new_method_call_fn;
typedef __typeof__(&dbus_message_new_signal) tbrd_dbus_message_new_signal_fn;
typedef __typeof__(&dbus_message_set_destination) tbrd_dbus_message_set_destination_fn;
typedef __typeof__(&dbus_message_set_error_name) tbrd_dbus_message_set_error_name_fn;
typedef __typeof__(&dbus_message_set_no_reply) tbrd_dbus_message_set_no_reply_fn;
typedef __typeof__(&dbus_message_set_reply_serial) tbrd_dbus_message_set_reply_serial_fn;
typedef __typeof__(&dbus_message_unref) tbrd_dbus_message_unref_fn;
typedef __typeof__(&dbus_pending_call_block) tbrd_dbus_pending_call_block_fn;
typedef __typeof__(&dbus_pending_call_steal_reply) tbrd_dbus_pending_call_steal_reply_fn;
typedef __typeof__(&dbus_pending_call_unref) tbrd_dbus_pending_call_unref_fn;
typedef __typeof__(&dbus_threads_init_default) tbrd_dbus_threads_init_default_fn;
typedef __typeof__(&dbus_timeout_get_data) tbrd_dbus_timeout_get_data_fn;
typedef __typeof__(&dbus_timeout_get_enabled) tbrd_dbus_timeout_get_enabled_fn;
typedef __typeof__(&dbus_timeout_get_interval) tbrd_dbus_timeout_get_interval_fn;
typedef __typeof__(&dbus_timeout_handle) tbrd_dbus_timeout_handle_fn;
typedef __typeof__(&dbus_timeout_set_data) tbrd_dbus_timeout_set_data_fn;
typedef __typeof__(&dbus_watch_get_data) tbrd_dbus_watch_get_data_fn;
typedef __typeof__(&dbus_watch_get_enabled) tbrd_dbus_watch_get_enabled_fn;
typedef __typeof__(&dbus_watch_get_flags) tbrd_dbus_watch_get_flags_fn;
typedef __typeof__(&dbus_watch_get_unix_fd) tbrd_dbus_watch_get_unix_fd_fn;
typedef __typeof__(&dbus_watch_handle) tbrd_dbus_watch_handle_fn;
typedef __typeof__(&dbus_watch_set_data) tbrd_dbus_watch_set_data_fn;
#endif
