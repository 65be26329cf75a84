// glibc's allocator controls (mallopt, malloc_trim), which the Glibc module does not include. Part of
// libc itself: nothing to link.
#ifndef TBRD_CMALLOC_SHIM_H
#define TBRD_CMALLOC_SHIM_H
#include <malloc.h>
#endif
