package metal

import _ "embed"

//go:embed rlx_runtime_metal_darwin.m
var runtimeSource []byte

// RuntimeSource returns rlx_runtime_metal_darwin.m, the implementation of
// rlx_runtime.h on Metal and MPSGraph that this backend uses through cgo
// and that an app compiles with its host module (rlx-compile writes it
// into the bundle as rlx_runtime_metal.m).
func RuntimeSource() []byte { return runtimeSource }
