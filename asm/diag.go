package asm

import (
	"fmt"
	"io"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// SourceMgr knows the text of the files being compiled, so diagnostics can
// show the offending line with a caret, as mlir-opt does.
type SourceMgr struct {
	files map[string]*lineIndex
	// PrintOpOnDiagnostic adds a "see current operation" note with the op in
	// generic form to diagnostics about an op (mlir-opt's default).
	PrintOpOnDiagnostic bool
}

// NewSourceMgr returns an empty source manager.
func NewSourceMgr() *SourceMgr {
	return &SourceMgr{files: map[string]*lineIndex{}, PrintOpOnDiagnostic: true}
}

// AddFile registers the contents of a file. lineOffset is the number of
// lines that precede src in the named file (for split chunks).
func (m *SourceMgr) AddFile(name string, src []byte) { m.files[name] = newLineIndex(src) }

// Render formats a diagnostic and its notes.
func (m *SourceMgr) Render(d *ir.Diagnostic) string {
	var sb strings.Builder
	m.write(&sb, d.Loc, d.Message, d.Severity, true)
	prev := d.Loc
	notes := d.Notes
	if m.PrintOpOnDiagnostic && d.Op != nil && d.Severity == ir.SeverityError {
		// Like mlir-opt: the op in generic form, on the same line unless it
		// has regions.
		var ob strings.Builder
		_ = ir.PrintOp(&ob, d.Op, d.Op.Context().MessagePrintOptions())
		sep := ""
		if d.Op.NumRegions() > 0 {
			sep = "\n"
		}
		notes = append(append([]*ir.Diagnostic(nil), notes...), &ir.Diagnostic{
			Severity: ir.SeverityNote, Loc: d.Op.Loc(), Message: "see current operation: " + sep + ob.String(),
		})
	}
	for _, n := range notes {
		m.write(&sb, n.Loc, n.Message, n.Severity, !sameLoc(prev, n.Loc))
		prev = n.Loc
	}
	return sb.String()
}

func sameLoc(a, b ir.Location) bool {
	if a == b {
		return true
	}
	fa, la, ca, oka := ir.LineCol(a)
	fb, lb, cb, okb := ir.LineCol(b)
	return oka && okb && fa == fb && la == lb && ca == cb && a.String() == b.String()
}

// Print writes a diagnostic to w.
func (m *SourceMgr) Print(w io.Writer, d *ir.Diagnostic) {
	io.WriteString(w, m.Render(d))
}

func (m *SourceMgr) write(sb *strings.Builder, loc ir.Location, msg string, sev ir.Severity, showLine bool) {
	file, line, col, ok := ir.LineCol(loc)
	if !ok {
		prefix := ""
		if _, unk := loc.(*ir.UnknownLoc); !unk && loc != nil {
			prefix = loc.String() + ": "
		}
		fmt.Fprintf(sb, "<unknown>:0: %s: %s%s\n", sev, prefix, msg)
		return
	}
	fmt.Fprintf(sb, "%s:%d:%d: %s: %s\n", file, line, col, sev, msg)
	if !showLine {
		return
	}
	li := m.files[file]
	if li == nil {
		return
	}
	start, ok := li.lineStart(line)
	if !ok {
		return
	}
	writeSourceLine(sb, li.lineText(start), col)
}

// ErrorDiagnostics converts a parse error into its diagnostics: one, or
// more for an *Error with More.
func ErrorDiagnostics(ctx *ir.Context, err error) []*ir.Diagnostic {
	ds := []*ir.Diagnostic{ErrorDiagnostic(ctx, err)}
	if e, ok := err.(*Error); ok {
		for _, m := range e.More {
			ds = append(ds, m.Diagnostic(ctx))
		}
	}
	return ds
}

// ErrorDiagnostic converts a parse error into a diagnostic (the first, for
// an *Error with More).
func ErrorDiagnostic(ctx *ir.Context, err error) *ir.Diagnostic {
	if e, ok := err.(*Error); ok {
		return e.Diagnostic(ctx)
	}
	if d, ok := err.(*ir.Diagnostic); ok {
		return d
	}
	return &ir.Diagnostic{Severity: ir.SeverityError, Loc: ctx.UnknownLoc(), Message: err.Error()}
}
