package importer

import (
	"errors"

	"github.com/rlx-compiler/rlx/ir"
)

// ImportGGUF imports a llama.cpp GGUF file.
func ImportGGUF(ctx *ir.Context, path string, opts Options) (*Model, error) {
	return nil, errors.New("not yet")
}
