// The libraries tbrd, tbrctl and otbr-sim open with dlopen (libdbus, libcrypto, libavahi-client, libcurl,
// libmicrohttpd: tbrd's HTTPS API and otbr-sim's REST API; libmosquitto: tbrd's MQTT), declared in an ELF note as systemd's
// "dlopen metadata" specification describes (https://systemd.io/ELF_DLOPEN_METADATA/): a section
// .note.dlopen holding a note of owner "FDO", type 0x407c0c0a, whose text is a JSON array with one
// object per library. Packaging tools can read what no DT_NEEDED entry says; the Debian package
// declares the same libraries in its Depends.
#include <stdint.h>

#define TBRD_DLOPEN_JSON                                                                                       \
    "[{\"feature\":\"dbus\",\"description\":\"D-Bus: io.tbrd and otbr-agent\","                                \
    "\"priority\":\"required\",\"soname\":[\"libdbus-1.so.3\"]},"                                              \
    "{\"feature\":\"crypto\",\"description\":\"PSKc derivation, ePSKc and dataset keys\","                    \
    "\"priority\":\"required\",\"soname\":[\"libcrypto.so.3\"]},"                                              \
    "{\"feature\":\"mdns\",\"description\":\"Border agents on the network through avahi-daemon\","            \
    "\"priority\":\"recommended\",\"soname\":[\"libavahi-client.so.3\"]},"                                \
    "{\"feature\":\"rest\",\"description\":\"Border routers on other hosts through otbr-agent's REST API\"," \
    "\"priority\":\"recommended\",\"soname\":[\"libcurl.so.4\"]},"                                             \
    "{\"feature\":\"http-api\",\"description\":\"tbrd's HTTPS API (http-listen)\","                            \
    "\"priority\":\"suggested\",\"soname\":[\"libmicrohttpd.so.12\"]},"                                   \
    "{\"feature\":\"mqtt\",\"description\":\"tbrd over MQTT (mqtt-url)\","                                     \
    "\"priority\":\"suggested\",\"soname\":[\"libmosquitto.so.1\"]}]"

__attribute__((used, section(".note.dlopen"), aligned(4)))
static const struct {
    uint32_t n_namesz;
    uint32_t n_descsz;
    uint32_t n_type;
    char name[4];
    _Alignas(4) char desc[sizeof(TBRD_DLOPEN_JSON)];
} tbrd_dlopen_note = {
    .n_namesz = 4,
    .n_descsz = sizeof(TBRD_DLOPEN_JSON),
    .n_type = 0x407c0c0a,
    .name = "FDO",
    .desc = TBRD_DLOPEN_JSON,
};
