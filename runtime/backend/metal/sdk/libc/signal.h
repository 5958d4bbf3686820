// rlx's compile-only stand-in for Darwin's <signal.h>
// (runtime/backend/metal/sdk/libc): the declarations that Go's runtime/cgo
// and the Metal backend's cgo code use, with Darwin's values, written from
// the POSIX and Apple manual pages. Nothing is linked against it: it lets
// clang compile the darwin/arm64 cgo build on Linux (TestDarwinBuild).
#pragma once
#include <sys/types.h>
#include <pthread.h>
typedef uint32_t sigset_t;
#define SIG_BLOCK 1
#define SIG_UNBLOCK 2
#define SIG_SETMASK 3
int sigfillset(sigset_t *);
int sigemptyset(sigset_t *);
int pthread_sigmask(int, const sigset_t *, sigset_t *);
