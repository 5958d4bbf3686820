package translation

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/rlx-compiler/rlx/ir"
)

// Translation is a named translation from a module to text or files.
type Translation struct {
	// Name is the flag that asks for it, without dashes: "mlir-to-msl".
	Name string
	// Summary is one line for --help.
	Summary string
	// Options are the flags the translation reads (--msl-version=3.1).
	Options []Option
	// Run translates req.Module to req.Out (and Aux files).
	Run func(req *Request) error
}

// Option is a flag a translation reads.
type Option struct {
	// Name is the flag without dashes: "msl-version".
	Name string
	// Value names the value in --help: "<version>".
	Value string
	// Default is the value when the flag is not given.
	Default string
	// Help is one line for --help.
	Help string
	// Check, when set, validates a given value; its error is reported as
	// the flag's ("for the --msl-version option: ...").
	Check func(string) error
}

// ErrNoAux is what Request.Aux returns when the output goes to standard
// output, where no file can sit beside it. Translations that write a
// second file skip it then (or fail, saying to give -o).
var ErrNoAux = errors.New("the output is standard output: give -o FILE for the files written beside it")

// Request is one run of a translation.
type Request struct {
	// Module is the parsed and verified top-level op.
	Module *ir.Operation
	// Out is the main output: -o, or standard output.
	Out  io.Writer
	opts map[string]string
	aux  func(suffix string) (io.Writer, error)
}

// NewRequest makes a request for module, writing to out. opts holds the
// options given (the others take their defaults from t); aux opens the
// file beside the main output whose name ends in suffix, or is nil when
// there is none (standard output).
func NewRequest(t *Translation, module *ir.Operation, out io.Writer, opts map[string]string, aux func(suffix string) (io.Writer, error)) *Request {
	all := map[string]string{}
	for _, o := range t.Options {
		all[o.Name] = o.Default
	}
	for k, v := range opts {
		all[k] = v
	}
	return &Request{Module: module, Out: out, opts: all, aux: aux}
}

// Opt returns the value of the named option, given or default. Asking
// for an option the translation does not declare is a bug in it.
func (r *Request) Opt(name string) string {
	v, ok := r.opts[name]
	if !ok {
		panic(fmt.Sprintf("translation: option %q is not declared", name))
	}
	return v
}

// Aux opens the file beside the main output whose name is the output's
// without its extension, plus suffix: Aux(".manifest.json") beside
// out.metal is out.manifest.json. It returns ErrNoAux when the main
// output is standard output.
func (r *Request) Aux(suffix string) (io.Writer, error) {
	if r.aux == nil {
		return nil, ErrNoAux
	}
	return r.aux(suffix)
}

// Registry holds translations by name, with their options.
type Registry struct {
	list    []*Translation
	byName  map[string]*Translation
	options map[string]*Translation // option name → the translation declaring it
}

// NewRegistry checks ts (names and option names unique, every
// translation with a Run) and indexes them.
func NewRegistry(ts ...*Translation) (*Registry, error) {
	r := &Registry{byName: map[string]*Translation{}, options: map[string]*Translation{}}
	for _, t := range ts {
		switch {
		case t.Name == "" || t.Run == nil:
			return nil, fmt.Errorf("translation %q has no name or no Run", t.Name)
		case r.byName[t.Name] != nil:
			return nil, fmt.Errorf("translation %q registered twice", t.Name)
		}
		r.byName[t.Name] = t
		for i := range t.Options {
			o := &t.Options[i]
			if prev := r.options[o.Name]; prev != nil {
				return nil, fmt.Errorf("option %q of translation %q is also an option of %q", o.Name, t.Name, prev.Name)
			}
			if r.byName[o.Name] != nil {
				return nil, fmt.Errorf("option %q of translation %q has a translation's name", o.Name, t.Name)
			}
			r.options[o.Name] = t
		}
		r.list = append(r.list, t)
	}
	sort.Slice(r.list, func(i, j int) bool { return r.list[i].Name < r.list[j].Name })
	return r, nil
}

// Translations returns the translations sorted by name.
func (r *Registry) Translations() []*Translation { return r.list }

// Lookup returns the named translation, or nil.
func (r *Registry) Lookup(name string) *Translation { return r.byName[name] }

// Option returns the named option and the translation declaring it.
func (r *Registry) Option(name string) (*Option, *Translation) {
	t := r.options[name]
	if t == nil {
		return nil, nil
	}
	for i := range t.Options {
		if t.Options[i].Name == name {
			return &t.Options[i], t
		}
	}
	return nil, nil
}
