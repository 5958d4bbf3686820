//go:build !(darwin && cgo)

package metal

import (
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// New fails: the Metal backend needs macOS and cgo.
func New(c *backend.Compiled, w ref.Weights, opts Options) (backend.Backend, error) {
	return nil, ErrUnavailable
}
