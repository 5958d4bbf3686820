package metal

import (
	"errors"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/codegen/translation"
)

// Translation returns mlir-to-msl: the kernels of every thunk.call with
// target "metal" as one .metal source, and beside it (out.manifest.json
// for -o out.metal) the manifest a runtime reads.
func Translation() *translation.Translation {
	return &translation.Translation{
		Name:    "mlir-to-msl",
		Summary: "Emit the MSL kernels of the Metal thunk regions (and a manifest beside -o)",
		Options: []translation.Option{
			{
				Name: "msl-version", Value: "<version>", Default: "3.0",
				Help:  "Metal Shading Language version to target (" + strings.Join(MSLVersions(), ", ") + "; bf16 needs 3.1)",
				Check: CheckMSLVersion,
			},
			{
				Name: "max-threads-per-threadgroup", Value: "<n>", Default: "1024",
				Help:  "Largest threadgroup any kernel may ask for (a multiple of 32)",
				Check: uintOption(CheckMaxThreads),
			},
			{
				Name: "decode-threadgroups", Value: "<n>", Default: "2048",
				Help:  "Most threadgroups a split GEMV launches (attention decode aims for an eighth)",
				Check: uintOption(CheckDecodeThreadgroups),
			},
			{
				Name: "attention-layout", Value: "<layout>", Default: "auto",
				Help:  "Attention decode's kernel layout (" + strings.Join(AttentionLayouts(), ", ") + ")",
				Check: CheckAttentionLayout,
			},
			{
				Name: "gemv-layout", Value: "<layout>", Default: "auto",
				Help:  "The f16 and f32 GEMV's kernel layout (" + strings.Join(GEMVLayouts(), ", ") + ")",
				Check: CheckGEMVLayout,
			},
		},
		Run: runTranslation,
	}
}

func runTranslation(req *translation.Request) error {
	n, _ := strconv.Atoi(req.Opt("max-threads-per-threadgroup"))
	dt, _ := strconv.Atoi(req.Opt("decode-threadgroups"))
	out, err := Emit(req.Module, Options{MSLVersion: req.Opt("msl-version"), MaxThreadsPerThreadgroup: n, DecodeThreadgroups: dt,
		AttentionLayout: req.Opt("attention-layout"), GEMVLayout: req.Opt("gemv-layout")})
	if err != nil {
		return err
	}
	if _, err := req.Out.Write([]byte(out.Source)); err != nil {
		return err
	}
	w, err := req.Aux(".manifest.json")
	if errors.Is(err, translation.ErrNoAux) {
		return nil
	}
	if err != nil {
		return err
	}
	return out.Manifest.WriteJSON(w)
}

// uintOption checks an unsigned option's text as MLIR's command line
// does, then its value with check.
func uintOption(check func(int) error) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return errors.New("'" + v + "' value invalid for uint argument!")
		}
		return check(n)
	}
}
