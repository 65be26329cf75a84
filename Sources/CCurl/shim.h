// C shim over libcurl (Debian: libcurl4-openssl-dev). libcurl is not linked: HTTP's LibCurl.swift opens
// it with dlopen the first time a border router on another host is reached, so a tbrd whose routers are
// all on the local bus, and every tbrctl command that reaches none, never maps it and the TLS, Kerberos
// and LDAP libraries it brings (about 5 MiB). The typedefs give the Swift side each function's exact
// type. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift can neither call nor hold: the
// helpers below take them as untyped pointers and give each argument type its own function.
#ifndef TBRD_CCURL_SHIM_H
#define TBRD_CCURL_SHIM_H
#include <curl/curl.h>

typedef __typeof__(&curl_global_init) tbrd_curl_global_init;
typedef __typeof__(&curl_easy_init) tbrd_curl_easy_init;
typedef __typeof__(&curl_easy_cleanup) tbrd_curl_easy_cleanup;
typedef __typeof__(&curl_easy_perform) tbrd_curl_easy_perform;
typedef __typeof__(&curl_easy_strerror) tbrd_curl_easy_strerror;
typedef __typeof__(&curl_slist_append) tbrd_curl_slist_append;
typedef __typeof__(&curl_slist_free_all) tbrd_curl_slist_free_all;

typedef CURLcode (*tbrd_curl_setopt)(CURL *handle, CURLoption option, ...);
typedef CURLcode (*tbrd_curl_getinfo)(CURL *handle, CURLINFO info, ...);
typedef size_t (*tbrd_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*tbrd_curl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode tbrd_curl_set_long(void *setopt, CURL *handle, CURLoption option, long value) {
    return ((tbrd_curl_setopt)setopt)(handle, option, value);
}
static inline CURLcode tbrd_curl_set_string(void *setopt, CURL *handle, CURLoption option, const char *value) {
    return ((tbrd_curl_setopt)setopt)(handle, option, value);
}
static inline CURLcode tbrd_curl_set_pointer(void *setopt, CURL *handle, CURLoption option, void *value) {
    return ((tbrd_curl_setopt)setopt)(handle, option, value);
}
static inline CURLcode tbrd_curl_set_slist(void *setopt, CURL *handle, CURLoption option, struct curl_slist *value) {
    return ((tbrd_curl_setopt)setopt)(handle, option, value);
}
static inline CURLcode tbrd_curl_set_data_callback(void *setopt, CURL *handle, CURLoption option, tbrd_curl_data_callback value) {
    return ((tbrd_curl_setopt)setopt)(handle, option, value);
}
static inline CURLcode tbrd_curl_set_progress_callback(void *setopt, CURL *handle, tbrd_curl_progress_callback value) {
    return ((tbrd_curl_setopt)setopt)(handle, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode tbrd_curl_set_body(void *setopt, CURL *handle, const char *bytes, long length) {
    CURLcode code = ((tbrd_curl_setopt)setopt)(handle, CURLOPT_POSTFIELDSIZE, length);
    if (code != CURLE_OK) return code;
    return ((tbrd_curl_setopt)setopt)(handle, CURLOPT_COPYPOSTFIELDS, bytes);
}
static inline CURLcode tbrd_curl_response_code(void *getinfo, CURL *handle, long *code) {
    return ((tbrd_curl_getinfo)getinfo)(handle, CURLINFO_RESPONSE_CODE, code);
}
#endif
