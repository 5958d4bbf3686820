package q6kcolumns_test

import (
	"testing"

	"github.com/rlx-compiler/rlx/passes/internal/passtest"
)

func TestGolden(t *testing.T) { passtest.Golden(t, "testdata") }
