// C shim over SQLite 3 (Debian: libsqlite3-dev).
#ifndef TBRD_CSQLITE_SHIM_H
#define TBRD_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift does not import.
static inline sqlite3_destructor_type tbrd_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
