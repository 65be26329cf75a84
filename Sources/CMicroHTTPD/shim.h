// C shim over GNU libmicrohttpd (Debian: libmicrohttpd-dev; runtime libmicrohttpd12, built with GnuTLS).
// libmicrohttpd is not linked: HTTPServer's LibMicroHTTPD.swift opens it with dlopen when a server is
// first started, so a tbrd without `http-listen` never maps it, nor GnuTLS and the libraries GnuTLS
// brings (tbrd's memory budget, docs/performance.md). The typedefs give the Swift side each function's
// exact type. MHD_start_daemon and MHD_get_connection_info are variadic, which Swift can neither call
// nor hold: the helpers below take them as untyped pointers.
#ifndef TBRD_CMICROHTTPD_SHIM_H
#define TBRD_CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <microhttpd.h>

typedef __typeof__(&MHD_stop_daemon) tbrd_mhd_stop_daemon;
typedef __typeof__(&MHD_get_connection_values) tbrd_mhd_get_connection_values;
typedef __typeof__(&MHD_lookup_connection_value) tbrd_mhd_lookup_connection_value;
typedef __typeof__(&MHD_create_response_from_buffer) tbrd_mhd_create_response_from_buffer;
typedef __typeof__(&MHD_create_response_from_callback) tbrd_mhd_create_response_from_callback;
typedef __typeof__(&MHD_destroy_response) tbrd_mhd_destroy_response;
typedef __typeof__(&MHD_add_response_header) tbrd_mhd_add_response_header;
typedef __typeof__(&MHD_queue_response) tbrd_mhd_queue_response;
typedef __typeof__(&MHD_suspend_connection) tbrd_mhd_suspend_connection;
typedef __typeof__(&MHD_resume_connection) tbrd_mhd_resume_connection;

typedef enum MHD_Result (*tbrd_mhd_access_handler)(void *cls, struct MHD_Connection *connection, const char *url,
                                                     const char *method, const char *version, const char *upload_data,
                                                     size_t *upload_data_size, void **request_context);
typedef void (*tbrd_mhd_completed_handler)(void *cls, struct MHD_Connection *connection, void **request_context,
                                           enum MHD_RequestTerminationCode code);
typedef ssize_t (*tbrd_mhd_content_reader)(void *cls, uint64_t pos, char *buf, size_t max);
typedef void (*tbrd_mhd_content_free)(void *cls);
typedef void (*tbrd_mhd_notify_connection)(void *cls, struct MHD_Connection *connection, void **socket_context,
                                           enum MHD_ConnectionNotificationCode code);
typedef struct MHD_Daemon *(*tbrd_mhd_start_daemon_fn)(unsigned int flags, uint16_t port, ...);
typedef const union MHD_ConnectionInfo *(*tbrd_mhd_get_connection_info_fn)(struct MHD_Connection *connection,
                                                                           enum MHD_ConnectionInfoType info_type, ...);

// Leaves the request target as sent: the server decodes percent-escapes per path segment itself, so an
// escaped "/" or "%" in a router id stays one segment and is decoded once.
static inline size_t tbrd_mhd_keep_escapes(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    return strlen(text);
}

// A daemon that serves every connection from an event loop: `threads` threads, each polling its share
// of the connections with epoll, over the listening socket `listen_fd` (which it takes over).
// Connections may be suspended while the application works on their request, and resumed from any
// thread (MHD_ALLOW_SUSPEND_RESUME). Bounds: `connection_limit` connections at once (more are
// refused), `per_address_limit` of them from one client address (0: no such bound), `memory_limit`
// bytes of buffer per connection (the request line and headers must fit; a larger header block is
// answered 431 by libmicrohttpd), `timeout_seconds` of inactivity before a connection that is not
// suspended is closed. `notify` is told of each connection as it opens and closes. With `tls_key` and
// `tls_cert` (PEM) it speaks TLS only, with the GnuTLS priorities `tls_priorities`.
static inline struct MHD_Daemon *tbrd_mhd_start(void *start, int listen_fd, tbrd_mhd_access_handler handler,
                                                void *handler_context, tbrd_mhd_completed_handler completed,
                                                void *completed_context, tbrd_mhd_notify_connection notify,
                                                void *notify_context, unsigned int timeout_seconds,
                                                unsigned int connection_limit, unsigned int per_address_limit,
                                                size_t memory_limit, unsigned int threads, const char *tls_key,
                                                const char *tls_cert, const char *tls_priorities) {
    tbrd_mhd_start_daemon_fn fn = (tbrd_mhd_start_daemon_fn)start;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    if (tls_key != NULL && tls_cert != NULL) {
        return fn(flags | MHD_USE_TLS, 0, NULL, NULL, handler, handler_context,
                  MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                  MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                  MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                  MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                  MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                  MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                  MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                  MHD_OPTION_THREAD_POOL_SIZE, threads,
                  MHD_OPTION_UNESCAPE_CALLBACK, tbrd_mhd_keep_escapes, NULL,
                  MHD_OPTION_HTTPS_MEM_KEY, tls_key,
                  MHD_OPTION_HTTPS_MEM_CERT, tls_cert,
                  MHD_OPTION_HTTPS_PRIORITIES, tls_priorities,
                  MHD_OPTION_END);
    }
    return fn(flags, 0, NULL, NULL, handler, handler_context,
              MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
              MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
              MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
              MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
              MHD_OPTION_CONNECTION_LIMIT, connection_limit,
              MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
              MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
              MHD_OPTION_THREAD_POOL_SIZE, threads,
              MHD_OPTION_UNESCAPE_CALLBACK, tbrd_mhd_keep_escapes, NULL,
              MHD_OPTION_END);
}

// The socket of `connection` (libmicrohttpd closes it after telling `notify` the connection closed), or -1.
static inline int tbrd_mhd_connection_fd(void *get_info, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        ((tbrd_mhd_get_connection_info_fn)get_info)(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

// What `notify` stored for `connection` as it opened, or NULL.
static inline void *tbrd_mhd_socket_context(void *get_info, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        ((tbrd_mhd_get_connection_info_fn)get_info)(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

// The peer's address of `connection` (libmicrohttpd keeps it for the connection's life), or NULL.
static inline const struct sockaddr *tbrd_mhd_client_address(void *get_info, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        ((tbrd_mhd_get_connection_info_fn)get_info)(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}
#endif
