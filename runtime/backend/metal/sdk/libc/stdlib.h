// rlx's compile-only stand-in for Darwin's <stdlib.h>
// (runtime/backend/metal/sdk/libc): the declarations that Go's runtime/cgo
// and the Metal backend's cgo code use, with Darwin's values, written from
// the POSIX and Apple manual pages. Nothing is linked against it: it lets
// clang compile the darwin/arm64 cgo build on Linux (TestDarwinBuild).
#pragma once
#include <stddef.h>
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
void abort(void) __attribute__((noreturn));
void exit(int) __attribute__((noreturn));
char *getenv(const char *);
int setenv(const char *, const char *, int);
int unsetenv(const char *);
