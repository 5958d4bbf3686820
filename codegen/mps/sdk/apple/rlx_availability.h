// Availability macros of rlx's stub SDK (codegen/mps/sdk): what Apple's
// headers spell MPS_AVAILABLE_STARTING(macos(15.0), …) or
// API_AVAILABLE(macos(15.0)), written out for macOS alone. clang checks
// them against the deployment target (-target arm64-apple-macosxN) under
// -Wunguarded-availability-new; on other targets it ignores them.
#ifndef RLX_STUB_AVAILABILITY_H
#define RLX_STUB_AVAILABILITY_H

#define RLX_MACOS(v) __attribute__((availability(macos, introduced = v)))
#define RLX_MACOS_DEPRECATED(v, d, repl) \
	__attribute__((availability(macos, introduced = v, deprecated = d, replacement = repl)))

#endif
