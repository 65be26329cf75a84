// A DTLS 1.2 endpoint with TLS_ECJPAKE_WITH_AES_128_CCM_8, client or server, over a connected UDP socket:
// the glue between mbedTLS (built with EC-JPAKE by scripts/mbedtls.sh, linked statically) and the DTLS
// module. Every wait has a deadline (CLOCK_MONOTONIC milliseconds) and can be cut short by a cancel
// descriptor becoming readable. The handshake retransmits as RFC 6347 says (1 s, doubling, 60 s at most);
// mbedTLS does it. No secret is ever printed: mbedTLS's debug output is not built in.
#ifndef CDTLS_H
#define CDTLS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tbr_dtls tbr_dtls;

/// What an operation came to. Reads return the byte count (>= 0) or the negated outcome.
typedef enum {
    TBR_DTLS_OK = 0,
    /// The deadline passed first.
    TBR_DTLS_DEADLINE = 1,
    /// Nothing listens there (ICMP port unreachable: ECONNREFUSED on the connected socket).
    TBR_DTLS_REFUSED = 2,
    /// The peer sent a fatal alert (a wrong EC-JPAKE password ends so on the client).
    TBR_DTLS_PEER_ALERT = 3,
    /// The peer closed the session (close_notify).
    TBR_DTLS_PEER_CLOSED = 4,
    /// Server: the ClientHello had no valid cookie; a HelloVerifyRequest went out. Reset and go on.
    TBR_DTLS_HELLO_VERIFY = 5,
    /// Any other failure; tbr_dtls_last_error has mbedTLS's code.
    TBR_DTLS_FAILED = 6,
    /// The Finished message did not verify: the two sides used different passwords.
    TBR_DTLS_BAD_FINISHED = 7,
    /// The cancel descriptor became readable.
    TBR_DTLS_CANCELLED = 8,
} tbr_dtls_outcome;

/// A new endpoint (server != 0: the server side). The password (the ePSKc's digits) is copied and wiped
/// when the endpoint is freed. NULL when out of memory or when mbedTLS refuses the configuration.
tbr_dtls *tbr_dtls_new(int server, const uint8_t *password, size_t password_len);
void tbr_dtls_free(tbr_dtls *dtls);

/// The connected UDP socket to use (not owned), and a descriptor whose readability cancels any wait (-1:
/// none).
void tbr_dtls_set_fd(tbr_dtls *dtls, int fd, int cancel_fd);
/// Server: the peer's transport address, for the HelloVerifyRequest cookie.
int tbr_dtls_set_client_id(tbr_dtls *dtls, const uint8_t *id, size_t len);
/// Back to a fresh session (after a HelloVerifyRequest or a finished session), same configuration.
int tbr_dtls_reset(tbr_dtls *dtls);

tbr_dtls_outcome tbr_dtls_handshake(tbr_dtls *dtls, int64_t deadline_ms);
/// One application datagram, or the negated outcome.
int tbr_dtls_read(tbr_dtls *dtls, uint8_t *buffer, size_t capacity, int64_t deadline_ms);
tbr_dtls_outcome tbr_dtls_write(tbr_dtls *dtls, const uint8_t *data, size_t len);
/// Sends close_notify.
void tbr_dtls_close_notify(tbr_dtls *dtls);

/// mbedTLS's code of the last failure, and its text.
int tbr_dtls_last_error(const tbr_dtls *dtls);
void tbr_dtls_error_text(int code, char *buffer, size_t capacity);
/// The negotiated cipher suite's IANA name ("" before a handshake).
const char *tbr_dtls_ciphersuite(const tbr_dtls *dtls);

int64_t tbr_dtls_now_ms(void);

/// For the fuzz target (fuzz/DTLSFuzz.c): a handshake, then one read, fed `data` as the peer's datagrams
/// with no socket and no waiting. The first byte's low bit picks the side (0 client, 1 server); then
/// each datagram is a 2-byte big-endian length and its bytes. Returns the outcome.
tbr_dtls_outcome tbr_dtls_fuzz(const uint8_t *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
