// C shim over libdbus-1 (Debian: libdbus-1-dev). Only what Swift cannot import directly lives here.
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

/// A zero-initialised DBusError (DBUS_ERROR_INIT is a macro initializer).
static inline DBusError tbrd_dbus_error_init(void) {
    DBusError e;
    dbus_error_init(&e);
    return e;
}

/// Appends one basic value; dbus_message_iter_append_basic takes a pointer to the value, strings as `const char **`.
static inline dbus_bool_t tbrd_dbus_append_string(DBusMessageIter *iter, int type, const char *value) {
    return dbus_message_iter_append_basic(iter, type, &value);
}
#endif
