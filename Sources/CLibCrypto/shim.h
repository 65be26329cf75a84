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
#include <openssl/x509.h>
#include <openssl/pem.h>
#include <openssl/bio.h>

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
typedef __typeof__(&EVP_sha256) tbrd_EVP_sha256;
// The HTTPS API's self-signed certificate (tbrd): a P-256 key, an X.509 certificate, both as PEM.
typedef __typeof__(&EVP_PKEY_CTX_new_from_name) tbrd_EVP_PKEY_CTX_new_from_name;
typedef __typeof__(&EVP_PKEY_CTX_free) tbrd_EVP_PKEY_CTX_free;
typedef __typeof__(&EVP_PKEY_keygen_init) tbrd_EVP_PKEY_keygen_init;
typedef __typeof__(&EVP_PKEY_CTX_set_group_name) tbrd_EVP_PKEY_CTX_set_group_name;
typedef __typeof__(&EVP_PKEY_generate) tbrd_EVP_PKEY_generate;
typedef __typeof__(&EVP_PKEY_free) tbrd_EVP_PKEY_free;
typedef __typeof__(&X509_new) tbrd_X509_new;
typedef __typeof__(&X509_free) tbrd_X509_free;
typedef __typeof__(&X509_set_version) tbrd_X509_set_version;
typedef __typeof__(&X509_get_serialNumber) tbrd_X509_get_serialNumber;
typedef __typeof__(&ASN1_INTEGER_set_uint64) tbrd_ASN1_INTEGER_set_uint64;
typedef __typeof__(&X509_getm_notBefore) tbrd_X509_getm_notBefore;
typedef __typeof__(&X509_getm_notAfter) tbrd_X509_getm_notAfter;
typedef __typeof__(&X509_gmtime_adj) tbrd_X509_gmtime_adj;
typedef __typeof__(&X509_set_pubkey) tbrd_X509_set_pubkey;
typedef __typeof__(&X509_get_subject_name) tbrd_X509_get_subject_name;
typedef __typeof__(&X509_set_issuer_name) tbrd_X509_set_issuer_name;
typedef __typeof__(&X509_NAME_add_entry_by_txt) tbrd_X509_NAME_add_entry_by_txt;
typedef __typeof__(&X509_sign) tbrd_X509_sign;
typedef __typeof__(&BIO_new) tbrd_BIO_new;
typedef __typeof__(&BIO_s_mem) tbrd_BIO_s_mem;
typedef __typeof__(&BIO_free) tbrd_BIO_free;
typedef __typeof__(&BIO_ctrl) tbrd_BIO_ctrl;
typedef __typeof__(&PEM_write_bio_X509) tbrd_PEM_write_bio_X509;
typedef __typeof__(&PEM_write_bio_PrivateKey) tbrd_PEM_write_bio_PrivateKey;
static inline long tbrd_bio_mem_data(tbrd_BIO_ctrl ctrl, BIO *bio, char **data) { return ctrl(bio, BIO_CTRL_INFO, 0, (void *)data); }
// Backups (tbrctl backup): the key from the passphrase (scrypt), then AES-256-GCM.
#include <openssl/kdf.h>
typedef __typeof__(&EVP_PBE_scrypt) tbrd_EVP_PBE_scrypt;
typedef __typeof__(&EVP_CIPHER_CTX_new) tbrd_EVP_CIPHER_CTX_new;
typedef __typeof__(&EVP_CIPHER_CTX_free) tbrd_EVP_CIPHER_CTX_free;
typedef __typeof__(&EVP_CIPHER_CTX_ctrl) tbrd_EVP_CIPHER_CTX_ctrl;
typedef __typeof__(&EVP_aes_256_gcm) tbrd_EVP_aes_256_gcm;
typedef __typeof__(&EVP_CipherInit_ex) tbrd_EVP_CipherInit_ex;
typedef __typeof__(&EVP_CipherUpdate) tbrd_EVP_CipherUpdate;
typedef __typeof__(&EVP_CipherFinal_ex) tbrd_EVP_CipherFinal_ex;
static const int tbrd_gcm_set_ivlen = EVP_CTRL_GCM_SET_IVLEN;
static const int tbrd_gcm_get_tag = EVP_CTRL_GCM_GET_TAG;
static const int tbrd_gcm_set_tag = EVP_CTRL_GCM_SET_TAG;
#endif
