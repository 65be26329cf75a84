// C shim over libavahi-client (Debian: libavahi-client-dev).
#ifndef TBRD_CAVAHI_SHIM_H
#define TBRD_CAVAHI_SHIM_H
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/error.h>
#include <avahi-common/strlst.h>
#include <avahi-common/watch.h>
#include <avahi-common/malloc.h>
#endif
