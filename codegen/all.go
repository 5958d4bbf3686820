package codegen

import (
	"github.com/rlx-compiler/rlx/codegen/dot"
	"github.com/rlx-compiler/rlx/codegen/llvmir"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/mps"
	"github.com/rlx-compiler/rlx/codegen/translation"
)

// All returns every translation rlx-translate offers, new values on each
// call.
func All() []*translation.Translation {
	return []*translation.Translation{
		dot.Translation(),
		llvmir.Translation(),
		metal.Translation(),
		mps.Translation(),
	}
}
