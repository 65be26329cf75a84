// C shim over OpenSSL's libcrypto (Debian: libssl-dev).
#ifndef TBRD_CLIBCRYPTO_SHIM_H
#define TBRD_CLIBCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#endif
