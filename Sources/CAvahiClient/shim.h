// C shim over libavahi-client (Debian: libavahi-client-dev). Only the MDNS module imports it.
// libavahi-client is not linked: MDNS opens it with dlopen when a client is first created (tbrd, otbr-sim
// --mdns, tbrctl discover), so the tbrctl commands that never browse do not pay for loading it. The
// typedefs below give the Swift side each function's exact type.
#ifndef TBRD_CAVAHI_SHIM_H
#define TBRD_CAVAHI_SHIM_H
#include <sys/time.h>
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/strlst.h>
#include <avahi-common/watch.h>
#include <avahi-common/malloc.h>

// Enum constants as plain ints, so Swift code need not spell the C enum types.
static const int tbrd_avahi_if_unspec = AVAHI_IF_UNSPEC;
static const int tbrd_avahi_proto_unspec = AVAHI_PROTO_UNSPEC;
static const int tbrd_avahi_proto_inet = AVAHI_PROTO_INET;
static const int tbrd_avahi_proto_inet6 = AVAHI_PROTO_INET6;
static const unsigned tbrd_avahi_watch_in = AVAHI_WATCH_IN;
static const unsigned tbrd_avahi_watch_out = AVAHI_WATCH_OUT;
static const unsigned tbrd_avahi_watch_err = AVAHI_WATCH_ERR;
static const unsigned tbrd_avahi_watch_hup = AVAHI_WATCH_HUP;


typedef __typeof__(&avahi_address_snprint) tbrd_avahi_address_snprint;
typedef __typeof__(&avahi_alternative_service_name) tbrd_avahi_alternative_service_name;
typedef __typeof__(&avahi_client_errno) tbrd_avahi_client_errno;
typedef __typeof__(&avahi_client_free) tbrd_avahi_client_free;
typedef __typeof__(&avahi_client_get_host_name_fqdn) tbrd_avahi_client_get_host_name_fqdn;
typedef __typeof__(&avahi_client_get_state) tbrd_avahi_client_get_state;
typedef __typeof__(&avahi_client_new) tbrd_avahi_client_new;
typedef __typeof__(&avahi_entry_group_add_service_strlst) tbrd_avahi_entry_group_add_service_strlst;
typedef __typeof__(&avahi_entry_group_commit) tbrd_avahi_entry_group_commit;
typedef __typeof__(&avahi_entry_group_free) tbrd_avahi_entry_group_free;
typedef __typeof__(&avahi_entry_group_get_client) tbrd_avahi_entry_group_get_client;
typedef __typeof__(&avahi_entry_group_new) tbrd_avahi_entry_group_new;
typedef __typeof__(&avahi_entry_group_reset) tbrd_avahi_entry_group_reset;
typedef __typeof__(&avahi_entry_group_update_service_txt_strlst) tbrd_avahi_entry_group_update_service_txt_strlst;
typedef __typeof__(&avahi_free) tbrd_avahi_free;
typedef __typeof__(&avahi_service_browser_free) tbrd_avahi_service_browser_free;
typedef __typeof__(&avahi_service_browser_get_client) tbrd_avahi_service_browser_get_client;
typedef __typeof__(&avahi_service_browser_new) tbrd_avahi_service_browser_new;
typedef __typeof__(&avahi_service_resolver_free) tbrd_avahi_service_resolver_free;
typedef __typeof__(&avahi_service_resolver_get_client) tbrd_avahi_service_resolver_get_client;
typedef __typeof__(&avahi_service_resolver_new) tbrd_avahi_service_resolver_new;
typedef __typeof__(&avahi_strerror) tbrd_avahi_strerror;
typedef __typeof__(&avahi_string_list_free) tbrd_avahi_string_list_free;
typedef __typeof__(&avahi_string_list_parse) tbrd_avahi_string_list_parse;
typedef __typeof__(&avahi_string_list_serialize) tbrd_avahi_string_list_serialize;

#endif
