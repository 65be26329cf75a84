// C shim over libavahi-client (Debian: libavahi-client-dev). Only the MDNS module imports it.
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

#endif
