// Private to CDTLS (not in include/): the session's state, shared by dtls.c and dtls_fuzz.c.
#ifndef TBRD_CDTLS_SESSION_H
#define TBRD_CDTLS_SESSION_H
#include "CDTLS.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "mbedtls/ctr_drbg.h"
#include "mbedtls/entropy.h"
#include "mbedtls/error.h"
#include "mbedtls/net_sockets.h"
#include "mbedtls/platform_util.h"
#include "mbedtls/ssl.h"
#include "mbedtls/ssl_cookie.h"

struct tbr_dtls {
    int server;
    mbedtls_ssl_context ssl;
    mbedtls_ssl_config conf;
    mbedtls_entropy_context entropy;
    mbedtls_ctr_drbg_context drbg;
    mbedtls_ssl_cookie_ctx cookies;
    int ciphersuites[2];
    uint8_t password[64];
    // Server: the client's transport address for the cookie, set again after every reset.
    uint8_t client_id[64];
    size_t client_id_len;
    size_t password_len;
    int fd;
    int cancel_fd;
    int64_t deadline_ms;
    // Why the transport failed, read after mbedTLS returns.
    int deadline_hit, refused, cancelled;
    int last_error;
    // The retransmission timer (mbedtls_ssl_set_timer_cb): intermediate and final delays from `timer_start`.
    int64_t timer_start;
    uint32_t timer_int, timer_fin;
    // Fuzzing: the server's datagrams, in memory.
    const uint8_t *fuzz_data;
    size_t fuzz_len, fuzz_pos;
};

#endif
