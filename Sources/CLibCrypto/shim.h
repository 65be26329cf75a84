// C shim over OpenSSL's libcrypto (Debian: libssl-dev). libcrypto is not linked: MeshCoP opens it with
// dlopen the first time a command needs it (PSKc, random datasets and keys, the WebSocket handshake's SHA-1), so the commands that do
// not never pay for loading it. These typedefs give the Swift side each function's exact type.
#ifndef TBRD_CLIBCRYPTO_SHIM_H
#define TBRD_CLIBCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

typedef __typeof__(&RAND_bytes) tbrd_RAND_bytes;
typedef __typeof__(&ERR_get_error) tbrd_ERR_get_error;
typedef __typeof__(&ERR_error_string_n) tbrd_ERR_error_string_n;
typedef __typeof__(&ERR_clear_error) tbrd_ERR_clear_error;
typedef __typeof__(&EVP_MAC_fetch) tbrd_EVP_MAC_fetch;
typedef __typeof__(&EVP_MAC_free) tbrd_EVP_MAC_free;
typedef __typeof__(&EVP_MAC_CTX_new) tbrd_EVP_MAC_CTX_new;
typedef __typeof__(&EVP_MAC_CTX_free) tbrd_EVP_MAC_CTX_free;
typedef __typeof__(&EVP_MAC_CTX_set_params) tbrd_EVP_MAC_CTX_set_params;
typedef __typeof__(&EVP_MAC_init) tbrd_EVP_MAC_init;
typedef __typeof__(&EVP_MAC_update) tbrd_EVP_MAC_update;
typedef __typeof__(&EVP_MAC_final) tbrd_EVP_MAC_final;
typedef __typeof__(&OSSL_PARAM_construct_utf8_string) tbrd_OSSL_PARAM_construct_utf8_string;
typedef __typeof__(&OSSL_PARAM_construct_end) tbrd_OSSL_PARAM_construct_end;
typedef __typeof__(&EVP_Digest) tbrd_EVP_Digest;
typedef __typeof__(&EVP_sha1) tbrd_EVP_sha1;
#endif
