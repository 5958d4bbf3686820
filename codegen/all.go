package codegen

import (
	"github.com/rlx-compiler/rlx/codegen/dot"
	"github.com/rlx-compiler/rlx/codegen/mps"
	"github.com/rlx-compiler/rlx/codegen/translation"
)

// All returns every translation rlx-translate offers, new values on each
// call.
func All() []*translation.Translation {
	return []*translation.Translation{
		dot.Translation(),
		mps.Translation(),
	}
}
