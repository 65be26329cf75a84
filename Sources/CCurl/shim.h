// C shim over libcurl (Debian: libcurl4-openssl-dev). curl_easy_setopt and curl_easy_getinfo are
// variadic, which Swift cannot call: these helpers give each argument type its own function.
#ifndef TBRD_CCURL_SHIM_H
#define TBRD_CCURL_SHIM_H
#include <curl/curl.h>

typedef size_t (*tbrd_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*tbrd_curl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode tbrd_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tbrd_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tbrd_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tbrd_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tbrd_curl_set_data_callback(CURL *handle, CURLoption option, tbrd_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tbrd_curl_set_progress_callback(CURL *handle, tbrd_curl_progress_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode tbrd_curl_set_body(CURL *handle, const char *bytes, long length) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, bytes);
}
static inline CURLcode tbrd_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
#endif
