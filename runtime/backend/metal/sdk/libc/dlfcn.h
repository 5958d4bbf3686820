// rlx's compile-only stand-in for Darwin's <dlfcn.h>
// (runtime/backend/metal/sdk/libc): the declarations that Go's runtime/cgo
// and the Metal backend's cgo code use, with Darwin's values, written from
// the POSIX and Apple manual pages. Nothing is linked against it: it lets
// clang compile the darwin/arm64 cgo build on Linux (TestDarwinBuild).
#pragma once
#define RTLD_LAZY 0x1
#define RTLD_NOW 0x2
#define RTLD_LOCAL 0x4
#define RTLD_GLOBAL 0x8
void *dlopen(const char *, int);
void *dlsym(void *, const char *);
int dlclose(void *);
char *dlerror(void);
