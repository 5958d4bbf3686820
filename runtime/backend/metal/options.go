package metal

import "errors"

// ErrUnavailable is New's error where there is no Metal: on systems other
// than macOS, and in builds without cgo.
var ErrUnavailable = errors.New("the metal backend runs on macOS, built with cgo (CGO_ENABLED=1); use --backend sim to run the same kernels on this machine's CPU")

// Options control New.
type Options struct {
	// MacOS is the deployment target the MPSGraph builders are compiled
	// for ("" for codegen/mps's default).
	MacOS string
	// CC is the compiler that builds the MPSGraph builders into a dynamic
	// library at run time ("" for xcrun clang).
	CC string
}
