#ifndef CNETTLE_SHIM_H
#define CNETTLE_SHIM_H
// Nettle's SHA-256 only: a hashing library with no network or TLS code
// (the evidence page's digest, docs/cli.md `deskdays evidence`).
#include <nettle/sha2.h>
#endif
