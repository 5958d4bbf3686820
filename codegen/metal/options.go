package metal

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Options control emission. The zero value means the defaults.
type Options struct {
	// MSLVersion is the Metal Shading Language version the source targets,
	// "major.minor" ("3.0" when empty). bf16 tensors need 3.1 or later
	// (MSL's bfloat type).
	MSLVersion string
	// MaxThreadsPerThreadgroup bounds every kernel's threadgroup (1024 when
	// zero). A pipeline's real maximum can be lower than 1024 (896 on some
	// chips), so kernels never assume a size: they read
	// threads_per_threadgroup, and the manifest says which may shrink.
	MaxThreadsPerThreadgroup int
	// DecodeThreadgroups is the grid that the decode kernels which split
	// their work across threadgroups aim for (2048 when zero): the GEMV
	// splits K into as many parts as keep it within this many threadgroups
	// of 128 threads, and attention decode splits the keys until about an
	// eighth as many run (each holds the state of several heads). A GPU
	// with more cores wants more; every split adds partial results to
	// write and merge.
	DecodeThreadgroups int
	// AttentionLayout picks attention decode's kernel layout: "auto" (the
	// default when empty) takes the tiled layout where each simdgroup
	// has at least two steps of keys and the per-key layout otherwise,
	// as measured on an H200 (docs/codegen-metal.md); "tiled" and
	// "per-key" force one, to tune for another GPU or to test both.
	AttentionLayout string
	// GEMVLayout picks the f16 and f32 GEMV's kernel layout: "auto" (the
	// default when empty), where the narrow and deep layouts apply (one
	// row of a, N a multiple of 4) and the narrow one would split K,
	// takes the deep layout when its grid is between an eighth and a
	// half of what the GPU holds at once and the narrow one otherwise,
	// as measured on an H200 (docs/gpu-check.md, runs 14 and 15); "wide"
	// the layout every GEMV can take; "narrow" (gemv_narrow.go) and
	// "deep" (gemv_deep.go) those wherever they apply.
	GEMVLayout string
}

// AttentionLayouts are the values of Options.AttentionLayout.
func AttentionLayouts() []string { return []string{"auto", "tiled", "per-key"} }

// CheckAttentionLayout reports whether v is an attention decode layout.
func CheckAttentionLayout(v string) error { return oneOf(v, AttentionLayouts()) }

// GEMVLayouts are the values of Options.GEMVLayout.
func GEMVLayouts() []string { return []string{"auto", layoutWide, layoutNarrow, layoutDeep} }

// CheckGEMVLayout reports whether v is a GEMV layout.
func CheckGEMVLayout(v string) error { return oneOf(v, GEMVLayouts()) }

func oneOf(v string, values []string) error {
	if slices.Contains(values, v) {
		return nil
	}
	return fmt.Errorf("'%s' is not one of %s", v, strings.Join(values, ", "))
}

// Limits of a Metal threadgroup that every emitted kernel is checked
// against (Apple's Metal feature set tables).
const (
	MaxBuffers           = 31    // argument-table entries for buffers
	MaxThreadgroupMemory = 32768 // bytes
	ThreadgroupMemAlign  = 16    // the length must be a multiple of this
	SimdWidth            = 32    // threads per simdgroup on Apple GPUs
)

// MaxElements is the most elements a tensor that a kernel reads or writes
// may have (bytes, for a packed ui8 weight). The kernels index buffers
// with 32-bit unsigned integers, and the emitter keeps every index below
// the element count; below 2³¹, a bound such as i + stride of two such
// values cannot wrap either. (Llama 3's 405B lm head, 128256 × 16384, is
// 2.10·10⁹ elements, under 2³¹ = 2.15·10⁹.)
const MaxElements = 1 << 31

// MSLVersions returns the MSL versions the emitter targets, oldest first
// (the simdgroup functions as used here need 2.4).
func MSLVersions() []string { return []string{"2.4", "3.0", "3.1", "3.2"} }

// resolved returns the options with defaults filled in, or an error that
// names the bad option.
func (o Options) resolved() (Options, error) {
	if o.MSLVersion == "" {
		o.MSLVersion = "3.0"
	}
	if err := CheckMSLVersion(o.MSLVersion); err != nil {
		return o, fmt.Errorf("msl-version: %v", err)
	}
	if o.MaxThreadsPerThreadgroup == 0 {
		o.MaxThreadsPerThreadgroup = 1024
	}
	if err := CheckMaxThreads(o.MaxThreadsPerThreadgroup); err != nil {
		return o, fmt.Errorf("max-threads-per-threadgroup: %v", err)
	}
	if o.DecodeThreadgroups == 0 {
		o.DecodeThreadgroups = defaultDecodeThreadgroups
	}
	if err := CheckDecodeThreadgroups(o.DecodeThreadgroups); err != nil {
		return o, fmt.Errorf("decode-threadgroups: %v", err)
	}
	if o.AttentionLayout == "" {
		o.AttentionLayout = "auto"
	}
	if err := CheckAttentionLayout(o.AttentionLayout); err != nil {
		return o, fmt.Errorf("attention-layout: %v", err)
	}
	if o.GEMVLayout == "" {
		o.GEMVLayout = "auto"
	}
	if err := CheckGEMVLayout(o.GEMVLayout); err != nil {
		return o, fmt.Errorf("gemv-layout: %v", err)
	}
	return o, nil
}

// CheckDecodeThreadgroups reports whether n can be the decode kernels'
// target grid: 1 to 65536 threadgroups.
func CheckDecodeThreadgroups(n int) error {
	if n < 1 || n > 65536 {
		return fmt.Errorf("'%d' is not from 1 to 65536", n)
	}
	return nil
}

// foldsMerges reports whether attention decode merges its key ranges in
// its own last threadgroups (fold.go) instead of a second dispatch: that
// needs MSL 3.2's device-scope fence and coherent(device) buffers. (The
// split GEMV keeps its merge dispatch: folded, it measured slower.)
func (o *Options) foldsMerges() bool { return versionAtLeast(o.MSLVersion, "3.2") }

// CheckMSLVersion reports whether v is an MSL version the emitter targets.
func CheckMSLVersion(v string) error { return oneOf(v, MSLVersions()) }

// CheckMaxThreads reports whether n can bound a threadgroup: a multiple of
// the simdgroup width between 32 and 1024.
func CheckMaxThreads(n int) error {
	if n < SimdWidth || n > 1024 || n%SimdWidth != 0 {
		return fmt.Errorf("'%d' is not a multiple of 32 from 32 to 1024", n)
	}
	return nil
}

// versionAtLeast reports whether MSL version v is at least want.
func versionAtLeast(v, want string) bool {
	maj, min := splitVersion(v)
	wmaj, wmin := splitVersion(want)
	return maj > wmaj || (maj == wmaj && min >= wmin)
}

func splitVersion(v string) (int, int) {
	a, b, _ := strings.Cut(v, ".")
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	return x, y
}
