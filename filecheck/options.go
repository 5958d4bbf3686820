package filecheck

// DumpMode says when the annotated input dump is written (-dump-input).
type DumpMode int

const (
	// DumpFail dumps the input when the check fails (the default).
	DumpFail DumpMode = iota
	// DumpNever never dumps the input.
	DumpNever
	// DumpAlways dumps the input after every run.
	DumpAlways
	// DumpHelp explains the dump format instead of checking anything.
	DumpHelp
)

// DumpFilter selects the input lines shown in the dump (-dump-input-filter).
type DumpFilter int

const (
	// FilterDefault is FilterError for DumpFail and FilterAll for
	// DumpAlways.
	FilterDefault DumpFilter = iota
	// FilterAll shows every input line.
	FilterAll
	// FilterAnnotationFull shows lines with any annotation.
	FilterAnnotationFull
	// FilterAnnotation shows lines where an annotation starts.
	FilterAnnotation
	// FilterError shows lines where an error annotation starts.
	FilterError
)

// Options configures a check. The zero value matches LLVM FileCheck's
// defaults except for DumpContext (LLVM's default is 5, see
// DefaultOptions) and for the rlx extensions, which are on unless
// disabled.
type Options struct {
	// CheckPrefixes are the directive prefixes; empty means "CHECK".
	CheckPrefixes []string
	// CommentPrefixes start comment directives; empty means "COM", "RUN".
	CommentPrefixes []string
	// ImplicitCheckNot patterns are excluded between all positive matches
	// (--implicit-check-not).
	ImplicitCheckNot []string
	// Defines holds -D and -D# definitions: "NAME=VALUE" for a string
	// variable, "#NAME=EXPR" or "#FMT,NAME=EXPR" for a numeric one.
	Defines []string

	StrictWhitespace          bool // --strict-whitespace
	MatchFullLines            bool // --match-full-lines
	IgnoreCase                bool // --ignore-case
	AllowEmpty                bool // --allow-empty
	AllowUnusedPrefixes       bool // --allow-unused-prefixes
	EnableVarScope            bool // --enable-var-scope
	AllowDeprecatedDAGOverlap bool // --allow-deprecated-dag-overlap
	Verbose                   bool // -v
	VeryVerbose               bool // -vv (implies Verbose)

	DumpInput   DumpMode   // -dump-input
	DumpFilter  DumpFilter // -dump-input-filter
	DumpContext int        // -dump-input-context

	// Color writes diagnostics with ANSI colors, as --color does.
	Color bool

	// NoLint turns off the rlx lint that rejects near-miss directives
	// such as "CHECK-NXET:", "CHECK-NEXT foo" and "CHEKC:" (--lint=false).
	NoLint bool
	// NoEmptyNotWarning turns off the warning for a CHECK-NOT whose search
	// range is empty (--warn-empty-not=false).
	NoEmptyNotWarning bool
}

// DefaultOptions returns the options LLVM FileCheck uses when given no
// flags.
func DefaultOptions() Options {
	return Options{DumpContext: 5}
}

// Status is FileCheck's exit status.
type Status int

const (
	// StatusOK means the input matched the checks.
	StatusOK Status = 0
	// StatusMismatch means the input did not match.
	StatusMismatch Status = 1
	// StatusError means the check file or the options were malformed, or
	// a file could not be read.
	StatusError Status = 2
)

var (
	defaultCheckPrefixes   = []string{"CHECK"}
	defaultCommentPrefixes = []string{"COM", "RUN"}
)
