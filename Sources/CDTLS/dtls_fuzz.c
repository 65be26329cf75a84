// tbr_dtls_fuzz (CDTLS.h): one DTLS session, client or server, fed the peer's datagrams from memory,
// for fuzz/run.sh dtls; mbedTLS's record and handshake parsers are what it reaches.
#include "dtls_session.h"

tbr_dtls_outcome tbr_dtls_fuzz(const uint8_t *data, size_t len) {
    static const uint8_t password[] = "123456789";
    if (len == 0) return TBR_DTLS_FAILED;
    int server = data[0] & 1;
    tbr_dtls *d = tbr_dtls_new(server, password, sizeof password - 1);
    if (d == NULL) return TBR_DTLS_FAILED;
    static const uint8_t client_id[] = {127, 0, 0, 1, 0x12, 0x34};
    if (server) tbr_dtls_set_client_id(d, client_id, sizeof client_id);
    d->fuzz_data = data + 1;
    d->fuzz_len = len - 1;
    tbr_dtls_outcome result;
    // A server goes on after its HelloVerifyRequest, as otbr-sim's does, for as long as there is input.
    do {
        result = tbr_dtls_handshake(d, INT64_MAX);
        if (result == TBR_DTLS_HELLO_VERIFY && tbr_dtls_reset(d) != 0) break;
    } while (result == TBR_DTLS_HELLO_VERIFY);
    if (result == TBR_DTLS_OK) {
        uint8_t buffer[1280];
        int n = tbr_dtls_read(d, buffer, sizeof buffer, INT64_MAX);
        result = n >= 0 ? TBR_DTLS_OK : (tbr_dtls_outcome)-n;
    }
    tbr_dtls_free(d);
    return result;
}
