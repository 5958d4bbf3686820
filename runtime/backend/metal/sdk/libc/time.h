// rlx's compile-only stand-in for Darwin's <time.h>
// (runtime/backend/metal/sdk/libc): the declarations that Go's runtime/cgo
// and the Metal backend's cgo code use, with Darwin's values, written from
// the POSIX and Apple manual pages. Nothing is linked against it: it lets
// clang compile the darwin/arm64 cgo build on Linux (TestDarwinBuild).
#pragma once
#include <sys/types.h>
typedef long time_t;
struct timespec { time_t tv_sec; long tv_nsec; };
int nanosleep(const struct timespec *, struct timespec *);
