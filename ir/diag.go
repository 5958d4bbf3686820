package ir

import (
	"fmt"
	"strings"
	"sync"
)

// Severity of a diagnostic.
type Severity uint8

const (
	SeverityError Severity = iota
	SeverityWarning
	SeverityRemark
	SeverityNote
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityRemark:
		return "remark"
	}
	return "note"
}

// Diagnostic is a located message. Notes attached to a diagnostic are
// reported right after it.
type Diagnostic struct {
	Severity Severity
	Loc      Location
	Message  string
	Notes    []*Diagnostic
	// Op is the operation the diagnostic is about, if any; tools may print
	// it in a "see current operation" note as mlir-opt does.
	Op *Operation
}

// Error makes a Diagnostic usable as an error.
func (d *Diagnostic) Error() string {
	var sb strings.Builder
	sb.WriteString(FormatLoc(d.Loc))
	sb.WriteString(": ")
	sb.WriteString(d.Severity.String())
	sb.WriteString(": ")
	sb.WriteString(d.Message)
	return sb.String()
}

// AttachNote adds a note and returns it.
func (d *Diagnostic) AttachNote(loc Location, msg string) *Diagnostic {
	n := &Diagnostic{Severity: SeverityNote, Loc: loc, Message: msg}
	d.Notes = append(d.Notes, n)
	return n
}

// FormatLoc renders a location the way MLIR prefixes diagnostics:
// `file:line:col` for file locations (also inside names, call sites and
// fused locations), `<unknown>:0` otherwise.
func FormatLoc(l Location) string {
	if f, line, col, ok := LineCol(l); ok {
		return fmt.Sprintf("%s:%d:%d", f, line, col)
	}
	if n, ok := l.(*NameLoc); ok {
		return n.Name
	}
	return "<unknown>:0"
}

// DiagHandler receives diagnostics.
type DiagHandler func(*Diagnostic)

// DiagEngine routes diagnostics to a stack of handlers; the innermost
// handler receives every diagnostic. It is safe for concurrent use.
type DiagEngine struct {
	mu       sync.Mutex
	handlers []DiagHandler
}

// PushHandler installs h and returns a function that removes it.
func (e *DiagEngine) PushHandler(h DiagHandler) (pop func()) {
	e.mu.Lock()
	e.handlers = append(e.handlers, h)
	n := len(e.handlers)
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if len(e.handlers) >= n {
			e.handlers = append(e.handlers[:n-1], e.handlers[n:]...)
		}
	}
}

// Emit delivers d to the innermost handler. With no handler, errors are
// kept until TakeUnhandled is called.
func (e *DiagEngine) Emit(d *Diagnostic) {
	e.mu.Lock()
	var h DiagHandler
	if n := len(e.handlers); n > 0 {
		h = e.handlers[n-1]
	}
	e.mu.Unlock()
	if h != nil {
		h(d)
	}
}

// Diags returns the context's diagnostic engine.
func (c *Context) Diags() *DiagEngine { return &c.diags }

// Emit reports a diagnostic through the context's handlers.
func (c *Context) Emit(d *Diagnostic) { c.diags.Emit(d) }

// NewError builds an error diagnostic at loc.
func NewError(loc Location, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: SeverityError, Loc: loc, Message: fmt.Sprintf(format, args...)}
}

// OpError returns an error diagnostic at op's location whose message starts
// with `'op.name' op `, as MLIR's emitOpError does.
func OpError(op *Operation, format string, args ...any) *Diagnostic {
	return &Diagnostic{
		Severity: SeverityError,
		Loc:      op.loc,
		Message:  "'" + op.name.name + "' op " + fmt.Sprintf(format, args...),
		Op:       op,
	}
}

// EmitRemark reports a remark at op's location.
func (op *Operation) EmitRemark(format string, args ...any) {
	op.name.ctx.Emit(&Diagnostic{Severity: SeverityRemark, Loc: op.loc, Message: fmt.Sprintf(format, args...), Op: op})
}

// EmitWarning reports a warning at op's location.
func (op *Operation) EmitWarning(format string, args ...any) {
	op.name.ctx.Emit(&Diagnostic{Severity: SeverityWarning, Loc: op.loc, Message: fmt.Sprintf(format, args...), Op: op})
}

// Diagnostics is an error holding several diagnostics.
type Diagnostics []*Diagnostic

func (ds Diagnostics) Error() string {
	var parts []string
	for _, d := range ds {
		parts = append(parts, d.Error())
	}
	return strings.Join(parts, "\n")
}

// OpErrorPlain returns an error diagnostic at op's location without the
// `'op.name' op` prefix (MLIR's emitError on an op).
func OpErrorPlain(op *Operation, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: SeverityError, Loc: op.loc, Message: fmt.Sprintf(format, args...), Op: op}
}
