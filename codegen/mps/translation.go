package mps

import (
	"errors"
	"strconv"

	"github.com/rlx-compiler/rlx/codegen/translation"
)

// Translation returns the mlir-to-mpsgraph translation: Emit, the source
// to the output and the header beside it (out.m, out.h) when the output is
// a file.
func Translation() *translation.Translation {
	return &translation.Translation{
		Name:    "mlir-to-mpsgraph",
		Summary: "Objective-C MPSGraph builders for the mps.subgraph regions (after --lower-to-mps), and their header",
		Options: []translation.Option{
			{
				Name: "macos-version", Value: "<version>", Default: DefaultVersion.String(),
				Help: "The oldest macOS the builders run on: newer MPSGraph methods are called under @available with a fallback",
				Check: func(s string) error {
					_, err := ParseVersion(s)
					return err
				},
			},
			{
				Name: "max-inline-bytes", Value: "<n>", Default: strconv.Itoa(DefaultMaxInlineBytes),
				Help: "Constants larger than this are passed in to the builders (NSData by key) instead of written into the source",
				Check: func(s string) error {
					n, err := strconv.Atoi(s)
					if err != nil || n < 0 {
						return errors.New("'" + s + "' is not a byte count (0 or more)")
					}
					return nil
				},
			},
		},
		Run: run,
	}
}

func run(req *translation.Request) error {
	v, err := ParseVersion(req.Opt("macos-version"))
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(req.Opt("max-inline-bytes"))
	if err != nil {
		return err
	}
	if n == 0 {
		// 0 on the command line means what it says: nothing inlined.
		n = -1
	}
	out, err := Emit(req.Module, Options{MacOS: v, MaxInlineBytes: n})
	if err != nil {
		return err
	}
	if _, err := req.Out.Write(out.Source); err != nil {
		return err
	}
	h, err := req.Aux(".h")
	if errors.Is(err, translation.ErrNoAux) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = h.Write(out.Header)
	return err
}
