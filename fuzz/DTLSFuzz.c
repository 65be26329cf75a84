// libFuzzer target for the DTLS EC-JPAKE endpoint (fuzz/run.sh dtls SECONDS): mbedTLS's record layer and
// handshake parsers, client and server side, as tbrd, tbrctl and otbr-sim run them (Sources/CDTLS), fed
// arbitrary datagrams. Oracle: no crash, leak or sanitizer report, and an outcome that is one of the
// endpoint's own (never a hang: with no more input every wait ends at once).
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "CDTLS.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    tbr_dtls_outcome outcome = tbr_dtls_fuzz(data, size);
    if ((unsigned)outcome > TBR_DTLS_CANCELLED) abort();
    return 0;
}
