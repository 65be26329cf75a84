// See CDTLS.h. mbedTLS does the DTLS record layer, the EC-JPAKE handshake, the retransmissions and the
// HelloVerifyRequest cookies; this file gives it a socket, a clock and a deadline.
#include "dtls_session.h"

int64_t tbr_dtls_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void timer_set(void *ctx, uint32_t int_ms, uint32_t fin_ms) {
    tbr_dtls *d = ctx;
    d->timer_start = tbr_dtls_now_ms();
    d->timer_int = int_ms;
    d->timer_fin = fin_ms;
}

static int timer_get(void *ctx) {
    tbr_dtls *d = ctx;
    if (d->timer_fin == 0) return -1;
    if (d->fuzz_data != NULL) return 0;
    int64_t elapsed = tbr_dtls_now_ms() - d->timer_start;
    if (elapsed >= d->timer_fin) return 2;
    if (elapsed >= d->timer_int) return 1;
    return 0;
}

static int bio_send(void *ctx, const unsigned char *buf, size_t len) {
    tbr_dtls *d = ctx;
    if (d->fuzz_data != NULL) return (int)len;
    for (;;) {
        ssize_t n = send(d->fd, buf, len, MSG_NOSIGNAL);
        if (n >= 0) return (int)n;
        if (errno == EINTR) continue;
        if (errno == ECONNREFUSED) d->refused = 1;
        return MBEDTLS_ERR_NET_SEND_FAILED;
    }
}

static int bio_recv_timeout(void *ctx, unsigned char *buf, size_t len, uint32_t timeout_ms) {
    tbr_dtls *d = ctx;
    if (d->fuzz_data != NULL) {
        if (d->fuzz_pos + 2 > d->fuzz_len) {
            d->deadline_hit = 1;
            return MBEDTLS_ERR_NET_RECV_FAILED;
        }
        size_t n = ((size_t)d->fuzz_data[d->fuzz_pos] << 8) | d->fuzz_data[d->fuzz_pos + 1];
        d->fuzz_pos += 2;
        if (n > d->fuzz_len - d->fuzz_pos) n = d->fuzz_len - d->fuzz_pos;
        size_t copied = n < len ? n : len;
        memcpy(buf, d->fuzz_data + d->fuzz_pos, copied);
        d->fuzz_pos += n;
        return (int)copied;
    }
    for (;;) {
        int64_t remaining = d->deadline_ms - tbr_dtls_now_ms();
        if (remaining <= 0) {
            d->deadline_hit = 1;
            return MBEDTLS_ERR_NET_RECV_FAILED;
        }
        // mbedTLS's own wait (a retransmission) when it comes first; else the caller's deadline.
        int retransmit = timeout_ms != 0 && (int64_t)timeout_ms < remaining;
        int64_t wait = retransmit ? (int64_t)timeout_ms : remaining;
        struct pollfd fds[2] = {{.fd = d->fd, .events = POLLIN}, {.fd = d->cancel_fd, .events = POLLIN}};
        int r = poll(fds, d->cancel_fd >= 0 ? 2 : 1, (int)(wait > 3600000 ? 3600000 : wait));
        if (r < 0) {
            if (errno == EINTR) continue;
            return MBEDTLS_ERR_NET_RECV_FAILED;
        }
        if (d->cancel_fd >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            d->cancelled = 1;
            return MBEDTLS_ERR_NET_RECV_FAILED;
        }
        if (r == 0) {
            if (retransmit) return MBEDTLS_ERR_SSL_TIMEOUT;
            continue;  // the deadline: checked at the top
        }
        ssize_t n = recv(d->fd, buf, len, 0);
        if (n >= 0) return (int)n;
        if (errno == EINTR || errno == EAGAIN) continue;
        if (errno == ECONNREFUSED) d->refused = 1;
        return MBEDTLS_ERR_NET_RECV_FAILED;
    }
}

static int outcome(tbr_dtls *d, int ret) {
    if (ret == 0) return TBR_DTLS_OK;
    d->last_error = ret;
    if (d->cancelled) return TBR_DTLS_CANCELLED;
    if (d->refused) return TBR_DTLS_REFUSED;
    if (d->deadline_hit) return TBR_DTLS_DEADLINE;
    switch (ret) {
    case MBEDTLS_ERR_SSL_HELLO_VERIFY_REQUIRED: return TBR_DTLS_HELLO_VERIFY;
    case MBEDTLS_ERR_SSL_FATAL_ALERT_MESSAGE: return TBR_DTLS_PEER_ALERT;
    case MBEDTLS_ERR_SSL_PEER_CLOSE_NOTIFY: return TBR_DTLS_PEER_CLOSED;
    case MBEDTLS_ERR_SSL_INVALID_MAC:
    case MBEDTLS_ERR_SSL_BAD_HS_FINISHED: return TBR_DTLS_BAD_FINISHED;
    case MBEDTLS_ERR_SSL_TIMEOUT: return TBR_DTLS_DEADLINE;
    default: return TBR_DTLS_FAILED;
    }
}

static void clear_flags(tbr_dtls *d) {
    d->deadline_hit = d->refused = d->cancelled = 0;
}

static int setup_session(tbr_dtls *d) {
    int ret = mbedtls_ssl_set_hs_ecjpake_password(&d->ssl, d->password, d->password_len);
    if (ret != 0) return ret;
    mbedtls_ssl_set_bio(&d->ssl, d, bio_send, NULL, bio_recv_timeout);
    mbedtls_ssl_set_timer_cb(&d->ssl, d, timer_set, timer_get);
    return 0;
}

tbr_dtls *tbr_dtls_new(int server, const uint8_t *password, size_t password_len) {
    if (password_len == 0 || password_len > sizeof(((tbr_dtls *)0)->password)) return NULL;
    tbr_dtls *d = calloc(1, sizeof *d);
    if (d == NULL) return NULL;
    d->server = server;
    d->fd = -1;
    d->cancel_fd = -1;
    memcpy(d->password, password, password_len);
    d->password_len = password_len;
    mbedtls_ssl_init(&d->ssl);
    mbedtls_ssl_config_init(&d->conf);
    mbedtls_entropy_init(&d->entropy);
    mbedtls_ctr_drbg_init(&d->drbg);
    mbedtls_ssl_cookie_init(&d->cookies);
    static const unsigned char personal[] = "tbrd ePSKc DTLS";
    int ret = mbedtls_ctr_drbg_seed(&d->drbg, mbedtls_entropy_func, &d->entropy, personal, sizeof personal - 1);
    if (ret == 0)
        ret = mbedtls_ssl_config_defaults(&d->conf, server ? MBEDTLS_SSL_IS_SERVER : MBEDTLS_SSL_IS_CLIENT,
                                          MBEDTLS_SSL_TRANSPORT_DATAGRAM, MBEDTLS_SSL_PRESET_DEFAULT);
    if (ret == 0) {
        d->ciphersuites[0] = MBEDTLS_TLS_ECJPAKE_WITH_AES_128_CCM_8;
        d->ciphersuites[1] = 0;
        mbedtls_ssl_conf_ciphersuites(&d->conf, d->ciphersuites);
        mbedtls_ssl_conf_min_version(&d->conf, MBEDTLS_SSL_MAJOR_VERSION_3, MBEDTLS_SSL_MINOR_VERSION_3);
        mbedtls_ssl_conf_max_version(&d->conf, MBEDTLS_SSL_MAJOR_VERSION_3, MBEDTLS_SSL_MINOR_VERSION_3);
        mbedtls_ssl_conf_rng(&d->conf, mbedtls_ctr_drbg_random, &d->drbg);
        // RFC 6347 4.2.4.1: an initial timer of 1 s, doubled at each retransmission, up to 60 s.
        mbedtls_ssl_conf_handshake_timeout(&d->conf, 1000, 60000);
        mbedtls_ssl_conf_read_timeout(&d->conf, 0);
        if (server) {
            ret = mbedtls_ssl_cookie_setup(&d->cookies, mbedtls_ctr_drbg_random, &d->drbg);
            if (ret == 0)
                mbedtls_ssl_conf_dtls_cookies(&d->conf, mbedtls_ssl_cookie_write, mbedtls_ssl_cookie_check,
                                              &d->cookies);
        }
    }
    if (ret == 0) ret = mbedtls_ssl_setup(&d->ssl, &d->conf);
    if (ret == 0) ret = setup_session(d);
    if (ret != 0) {
        tbr_dtls_free(d);
        return NULL;
    }
    return d;
}

void tbr_dtls_free(tbr_dtls *d) {
    if (d == NULL) return;
    mbedtls_ssl_free(&d->ssl);
    mbedtls_ssl_config_free(&d->conf);
    mbedtls_ssl_cookie_free(&d->cookies);
    mbedtls_ctr_drbg_free(&d->drbg);
    mbedtls_entropy_free(&d->entropy);
    mbedtls_platform_zeroize(d->password, sizeof d->password);
    free(d);
}

void tbr_dtls_set_fd(tbr_dtls *d, int fd, int cancel_fd) {
    d->fd = fd;
    d->cancel_fd = cancel_fd;
}

int tbr_dtls_set_client_id(tbr_dtls *d, const uint8_t *id, size_t len) {
    if (len > sizeof d->client_id) return MBEDTLS_ERR_SSL_BAD_INPUT_DATA;
    memcpy(d->client_id, id, len);
    d->client_id_len = len;
    return mbedtls_ssl_set_client_transport_id(&d->ssl, id, len);
}

int tbr_dtls_reset(tbr_dtls *d) {
    int ret = mbedtls_ssl_session_reset(&d->ssl);
    if (ret == 0) ret = setup_session(d);
    if (ret == 0 && d->server && d->client_id_len > 0)
        ret = mbedtls_ssl_set_client_transport_id(&d->ssl, d->client_id, d->client_id_len);
    return ret;
}

tbr_dtls_outcome tbr_dtls_handshake(tbr_dtls *d, int64_t deadline_ms) {
    clear_flags(d);
    d->deadline_ms = deadline_ms;
    int ret;
    // After a retransmission mbedTLS returns WANT_READ: the handshake goes on.
    do ret = mbedtls_ssl_handshake(&d->ssl);
    while (ret == MBEDTLS_ERR_SSL_WANT_READ || ret == MBEDTLS_ERR_SSL_WANT_WRITE);
    return outcome(d, ret);
}

int tbr_dtls_read(tbr_dtls *d, uint8_t *buffer, size_t capacity, int64_t deadline_ms) {
    clear_flags(d);
    d->deadline_ms = deadline_ms;
    for (;;) {
        int n = mbedtls_ssl_read(&d->ssl, buffer, capacity);
        if (n > 0) return n;
        if (n == MBEDTLS_ERR_SSL_WANT_READ || n == MBEDTLS_ERR_SSL_WANT_WRITE) continue;
        if (n == 0) return -TBR_DTLS_PEER_CLOSED;
        return -outcome(d, n);
    }
}

tbr_dtls_outcome tbr_dtls_write(tbr_dtls *d, const uint8_t *data, size_t len) {
    clear_flags(d);
    int n = mbedtls_ssl_write(&d->ssl, data, len);
    if (n < 0) return outcome(d, n);
    if ((size_t)n != len) {
        d->last_error = MBEDTLS_ERR_SSL_BAD_INPUT_DATA;
        return TBR_DTLS_FAILED;
    }
    return TBR_DTLS_OK;
}

void tbr_dtls_close_notify(tbr_dtls *d) {
    clear_flags(d);
    (void)mbedtls_ssl_close_notify(&d->ssl);
}

int tbr_dtls_last_error(const tbr_dtls *d) { return d->last_error; }

void tbr_dtls_error_text(int code, char *buffer, size_t capacity) { mbedtls_strerror(code, buffer, capacity); }

const char *tbr_dtls_ciphersuite(const tbr_dtls *d) {
    const char *name = mbedtls_ssl_get_ciphersuite(&d->ssl);
    return name != NULL ? name : "";
}
