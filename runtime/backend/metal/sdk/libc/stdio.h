// rlx's compile-only stand-in for Darwin's <stdio.h>
// (runtime/backend/metal/sdk/libc): the declarations that Go's runtime/cgo
// and the Metal backend's cgo code use, with Darwin's values, written from
// the POSIX and Apple manual pages. Nothing is linked against it: it lets
// clang compile the darwin/arm64 cgo build on Linux (TestDarwinBuild).
#pragma once
#include <stddef.h>
#include <stdarg.h>
typedef struct __sFILE FILE;
extern FILE *__stdinp, *__stdoutp, *__stderrp;
#define stdin __stdinp
#define stdout __stdoutp
#define stderr __stderrp
int fprintf(FILE *, const char *, ...);
int printf(const char *, ...);
int vfprintf(FILE *, const char *, va_list);
int snprintf(char *, size_t, const char *, ...);
int fflush(FILE *);
