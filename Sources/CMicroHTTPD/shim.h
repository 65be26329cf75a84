// C shim over GNU libmicrohttpd (Debian: libmicrohttpd-dev), for otbr-sim's REST API. MHD_start_daemon
// is variadic, which Swift cannot call: this helper passes the options the server uses.
#ifndef TBRD_CMICROHTTPD_SHIM_H
#define TBRD_CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <microhttpd.h>

typedef enum MHD_Result (*tbrd_mhd_access_handler)(void *cls, struct MHD_Connection *connection, const char *url,
                                                     const char *method, const char *version, const char *upload_data,
                                                     size_t *upload_data_size, void **request_context);
typedef void (*tbrd_mhd_completed_handler)(void *cls, struct MHD_Connection *connection, void **request_context,
                                           enum MHD_RequestTerminationCode code);

// A daemon with one thread per connection over the listening socket `listen_fd` (which it takes over).
static inline struct MHD_Daemon *tbrd_mhd_start(int listen_fd, tbrd_mhd_access_handler handler, void *handler_context,
                                                tbrd_mhd_completed_handler completed, void *completed_context,
                                                unsigned int connection_timeout_seconds) {
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL,
                            0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                            MHD_OPTION_END);
}
#endif
