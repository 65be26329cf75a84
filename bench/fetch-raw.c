// The reference for bench/fetch.sh: the ePSKc commissioner's work done in plain C on the same mbedTLS
// (.build/mbedtls, scripts/mbedtls.sh), with no error reporting beyond an exit status: a UDP socket to
// 127.0.0.1:PORT, the DTLS 1.2 TLS_ECJPAKE_WITH_AES_128_CCM_8 handshake with KEY as the EC-JPAKE
// password, a confirmable CoAP POST to c/ag, the answer, close_notify. Prints the answer's length.
//   fetch-raw PORT KEY
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mbedtls/ctr_drbg.h"
#include "mbedtls/entropy.h"
#include "mbedtls/net_sockets.h"
#include "mbedtls/ssl.h"
#include "mbedtls/timing.h"

int main(int argc, char **argv) {
    if (argc != 3) return 64;
    mbedtls_net_context net;
    mbedtls_ssl_context ssl;
    mbedtls_ssl_config conf;
    mbedtls_entropy_context entropy;
    mbedtls_ctr_drbg_context drbg;
    mbedtls_timing_delay_context timer;
    mbedtls_net_init(&net);
    mbedtls_ssl_init(&ssl);
    mbedtls_ssl_config_init(&conf);
    mbedtls_entropy_init(&entropy);
    mbedtls_ctr_drbg_init(&drbg);
    static const int suites[] = {MBEDTLS_TLS_ECJPAKE_WITH_AES_128_CCM_8, 0};
    if (mbedtls_ctr_drbg_seed(&drbg, mbedtls_entropy_func, &entropy, NULL, 0) != 0) return 1;
    if (mbedtls_net_connect(&net, "127.0.0.1", argv[1], MBEDTLS_NET_PROTO_UDP) != 0) return 2;
    mbedtls_ssl_config_defaults(&conf, MBEDTLS_SSL_IS_CLIENT, MBEDTLS_SSL_TRANSPORT_DATAGRAM, MBEDTLS_SSL_PRESET_DEFAULT);
    mbedtls_ssl_conf_ciphersuites(&conf, suites);
    mbedtls_ssl_conf_rng(&conf, mbedtls_ctr_drbg_random, &drbg);
    mbedtls_ssl_conf_read_timeout(&conf, 10000);
    if (mbedtls_ssl_setup(&ssl, &conf) != 0) return 3;
    mbedtls_ssl_set_hs_ecjpake_password(&ssl, (const unsigned char *)argv[2], strlen(argv[2]));
    mbedtls_ssl_set_bio(&ssl, &net, mbedtls_net_send, mbedtls_net_recv, mbedtls_net_recv_timeout);
    mbedtls_ssl_set_timer_cb(&ssl, &timer, mbedtls_timing_set_delay, mbedtls_timing_get_delay);
    int ret;
    while ((ret = mbedtls_ssl_handshake(&ssl)) == MBEDTLS_ERR_SSL_WANT_READ || ret == MBEDTLS_ERR_SSL_WANT_WRITE) {}
    if (ret != 0) return 4;
    // CON POST, token 4 bytes, Uri-Path "c" "ag".
    unsigned char request[] = {0x44, 0x02, 0x12, 0x34, 1, 2, 3, 4, 0xb1, 'c', 0x02, 'a', 'g'};
    if (mbedtls_ssl_write(&ssl, request, sizeof request) != (int)sizeof request) return 5;
    unsigned char answer[1500];
    do ret = mbedtls_ssl_read(&ssl, answer, sizeof answer);
    while (ret == MBEDTLS_ERR_SSL_WANT_READ);
    if (ret < 4 || answer[1] != 0x44) return 6;
    mbedtls_ssl_close_notify(&ssl);
    printf("%d\n", ret);
    mbedtls_ssl_free(&ssl);
    mbedtls_ssl_config_free(&conf);
    mbedtls_ctr_drbg_free(&drbg);
    mbedtls_entropy_free(&entropy);
    mbedtls_net_free(&net);
    return 0;
}
