package pipeline

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/internal/suggest"
)

// Decl collects the options and statistics a pass declares in its Declare
// method. Each option is bound to a field of the pass; when the Decl
// assigns defaults (NewPass, Registry.Create) the field is set to the
// default at declaration, as flag.FlagSet does.
type Decl struct {
	assign bool
	opts   []*Option
	stats  []*StatInfo
}

// Value is an option value of a custom type, like flag.Value. Set parses
// one textual value; String prints it so that Set accepts it back.
type Value interface {
	String() string
	Set(text string) error
}

// Option describes one declared option of a pass instance.
type Option struct {
	// Name is the option's name in textual pipelines ("max-iterations").
	Name string
	// Help is its one-line description.
	Help string
	// Type is the value type shown by --help: "bool", "int", "uint",
	// "float", "string", "enum", "list<int>", "list<string>", or a custom
	// type's name.
	Type string
	// Default is the default value in textual form.
	Default string
	// Enum lists the accepted values of an enum option.
	Enum []EnumValue
	// List reports whether the option takes a comma-separated list.
	List bool

	set   func(string) error
	get   func() string
	reset func()
}

// EnumValue is one accepted value of an enum option.
type EnumValue struct {
	Name string
	Help string
}

// StatInfo describes a declared statistic.
type StatInfo struct {
	Name string
	Help string
	Stat *Statistic
}

// Value returns the option's current value in textual form.
func (o *Option) Value() string { return o.get() }

// Set parses text into the option.
func (o *Option) Set(text string) error { return o.set(text) }

// IsBool reports whether the option is a bool (which may be given without
// a value).
func (o *Option) IsBool() bool { return o.Type == "bool" }

func (d *Decl) add(o *Option) {
	for _, prev := range d.opts {
		if prev.Name == o.Name {
			panic(fmt.Sprintf("pipeline: option %q declared twice", o.Name))
		}
	}
	if d.assign && o.reset != nil {
		o.reset()
	}
	d.opts = append(d.opts, o)
}

// Bool declares a boolean option. In a pipeline it is written `name`
// (true), `name=true` or `name=false` (also 1/0).
func (d *Decl) Bool(p *bool, name string, def bool, help string) {
	d.add(&Option{Name: name, Help: help, Type: "bool", Default: strconv.FormatBool(def),
		set: func(s string) error {
			v, err := parseBool(s)
			if err == nil {
				*p = v
			}
			return err
		},
		get:   func() string { return strconv.FormatBool(*p) },
		reset: func() { *p = def },
	})
}

// Int declares an integer option.
func (d *Decl) Int(p *int, name string, def int, help string) {
	d.add(&Option{Name: name, Help: help, Type: "int", Default: strconv.Itoa(def),
		set: func(s string) error {
			v, err := strconv.ParseInt(s, 0, strconv.IntSize)
			if err != nil {
				return fmt.Errorf("'%s' is not a valid integer", s)
			}
			*p = int(v)
			return nil
		},
		get:   func() string { return strconv.Itoa(*p) },
		reset: func() { *p = def },
	})
}

// Int64 declares a 64-bit integer option.
func (d *Decl) Int64(p *int64, name string, def int64, help string) {
	d.add(&Option{Name: name, Help: help, Type: "int", Default: strconv.FormatInt(def, 10),
		set: func(s string) error {
			v, err := strconv.ParseInt(s, 0, 64)
			if err != nil {
				return fmt.Errorf("'%s' is not a valid integer", s)
			}
			*p = v
			return nil
		},
		get:   func() string { return strconv.FormatInt(*p, 10) },
		reset: func() { *p = def },
	})
}

// Uint declares an unsigned integer option.
func (d *Decl) Uint(p *uint, name string, def uint, help string) {
	d.add(&Option{Name: name, Help: help, Type: "uint", Default: strconv.FormatUint(uint64(def), 10),
		set: func(s string) error {
			v, err := strconv.ParseUint(s, 0, strconv.IntSize)
			if err != nil {
				return fmt.Errorf("'%s' is not a valid unsigned integer", s)
			}
			*p = uint(v)
			return nil
		},
		get:   func() string { return strconv.FormatUint(uint64(*p), 10) },
		reset: func() { *p = def },
	})
}

// Float declares a floating-point option.
func (d *Decl) Float(p *float64, name string, def float64, help string) {
	d.add(&Option{Name: name, Help: help, Type: "float", Default: formatFloat(def),
		set: func(s string) error {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return fmt.Errorf("'%s' is not a valid number", s)
			}
			*p = v
			return nil
		},
		get:   func() string { return formatFloat(*p) },
		reset: func() { *p = def },
	})
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// String declares a string option. Values with spaces, commas or braces
// are written quoted or in braces: `name="a b"`, `name={x{y=1}}`.
func (d *Decl) String(p *string, name string, def string, help string) {
	d.add(&Option{Name: name, Help: help, Type: "string", Default: def,
		set:   func(s string) error { *p = s; return nil },
		get:   func() string { return *p },
		reset: func() { *p = def },
	})
}

// Enum declares an option whose value is one of values (by name).
func (d *Decl) Enum(p *string, name string, def string, values []EnumValue, help string) {
	d.add(&Option{Name: name, Help: help, Type: "enum", Default: def, Enum: values,
		set: func(s string) error {
			for _, v := range values {
				if v.Name == s {
					*p = s
					return nil
				}
			}
			names := make([]string, len(values))
			for i, v := range values {
				names[i] = v.Name
			}
			msg := fmt.Sprintf("'%s' is not a valid value (expected one of: %s)", s, strings.Join(names, ", "))
			if sug := suggest.Closest(s, names); sug != "" {
				msg += "; did you mean '" + sug + "'?"
			}
			return fmt.Errorf("%s", msg)
		},
		get:   func() string { return *p },
		reset: func() { *p = def },
	})
}

// IntList declares an option holding a comma-separated list of integers.
func (d *Decl) IntList(p *[]int, name string, def []int, help string) {
	format := func(v []int) string {
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = strconv.Itoa(x)
		}
		return strings.Join(parts, ",")
	}
	d.add(&Option{Name: name, Help: help, Type: "list<int>", Default: format(def), List: true,
		set: func(s string) error {
			elems, err := splitList(s)
			if err != nil {
				return err
			}
			out := make([]int, 0, len(elems))
			for _, e := range elems {
				v, err := strconv.ParseInt(e, 0, strconv.IntSize)
				if err != nil {
					return fmt.Errorf("'%s' is not a valid integer", e)
				}
				out = append(out, int(v))
			}
			*p = out
			return nil
		},
		get:   func() string { return format(*p) },
		reset: func() { *p = append([]int(nil), def...) },
	})
}

// StringList declares an option holding a comma-separated list of strings.
// Elements with commas or spaces are written quoted or in braces.
func (d *Decl) StringList(p *[]string, name string, def []string, help string) {
	format := func(v []string) string {
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = quoteValue(x, true)
		}
		return strings.Join(parts, ",")
	}
	d.add(&Option{Name: name, Help: help, Type: "list<string>", Default: format(def), List: true,
		set: func(s string) error {
			elems, err := splitList(s)
			if err != nil {
				return err
			}
			*p = elems
			return nil
		},
		get:   func() string { return format(*p) },
		reset: func() { *p = append([]string(nil), def...) },
	})
}

// Var declares an option of a custom type. typ is shown by --help; def is
// the default in textual form, assigned with v.Set when defaults apply.
func (d *Decl) Var(v Value, name, typ, def, help string) {
	d.add(&Option{Name: name, Help: help, Type: typ, Default: def,
		set:   v.Set,
		get:   v.String,
		reset: func() { _ = v.Set(def) },
	})
}

// Check makes the named option, already declared, run check after each
// value it parses: a value check rejects is an invalid option value,
// reported where the pipeline text gives it (a list of op names that must
// exist, a count that must not be negative).
func (d *Decl) Check(name string, check func() error) {
	o := d.Lookup(name)
	if o == nil {
		panic(fmt.Sprintf("pipeline: Check of undeclared option %q", name))
	}
	set := o.set
	o.set = func(s string) error {
		if err := set(s); err != nil {
			return err
		}
		return check()
	}
}

// Stat declares a statistic.
func (d *Decl) Stat(s *Statistic, name, help string) {
	d.stats = append(d.stats, &StatInfo{Name: name, Help: help, Stat: s})
}

// Options returns the declared options sorted by name.
func (d *Decl) Options() []*Option {
	out := append([]*Option(nil), d.opts...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Statistics returns the declared statistics sorted by name.
func (d *Decl) Statistics() []*StatInfo {
	out := append([]*StatInfo(nil), d.stats...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the option with the given name, or nil.
func (d *Decl) Lookup(name string) *Option {
	for _, o := range d.opts {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// Describe returns the options and statistics a pass declares, bound to
// p's fields, without changing their values.
func Describe(p Pass) *Decl {
	d := &Decl{}
	if dp, ok := p.(Declarer); ok {
		dp.Declare(d)
	}
	return d
}

// DefaultOptions returns the options of the pass described by pi with
// their defaults, on a throwaway instance (for --help and docs).
func DefaultOptions(pi *PassInfo) []*Option {
	p := pi.New()
	d := &Decl{assign: true}
	if dp, ok := p.(Declarer); ok {
		dp.Declare(d)
	}
	return d.Options()
}

func parseBool(s string) (bool, error) {
	switch s {
	case "", "true", "1", "TRUE", "True":
		return true, nil
	case "false", "0", "FALSE", "False":
		return false, nil
	}
	return false, fmt.Errorf("'%s' is not a valid boolean (expected true or false)", s)
}

// FormatOptions prints the options of p as they appear between braces in
// a textual pipeline: `name=value` pairs separated by spaces, sorted by
// name. Empty lists are left out unless their default is not empty.
func FormatOptions(p Pass) string {
	d := Describe(p)
	var parts []string
	for _, o := range d.Options() {
		v := o.get()
		if o.List {
			if v == "" {
				if o.Default == "" {
					// MLIR prints an empty list as nothing, keeping its
					// separator: `{  max-iterations=10 …}` for canonicalize.
					parts = append(parts, "")
					continue
				}
				parts = append(parts, o.Name+"={}")
				continue
			}
			// Elements are quoted by the list's formatter; braces keep a
			// lone quoted element from being unwrapped as the whole value.
			if strings.ContainsAny(v, "\"'{") {
				v = "{" + v + "}"
			}
			parts = append(parts, o.Name+"="+v)
			continue
		}
		parts = append(parts, o.Name+"="+quoteValue(v, false))
	}
	return strings.Join(parts, " ")
}

// quoteValue returns v written so that the option tokenizer reads it back
// unchanged: bare when it has no special characters, otherwise in braces
// (when they balance), double quotes or single quotes. inList also quotes
// commas.
func quoteValue(v string, inList bool) string {
	if v == "" && inList {
		return `""`
	}
	special := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case ' ', '\t', '\n', '\v', '\f', '\r', '{', '}', '"', '\'', '=':
			special = true
		case ',':
			if inList {
				special = true
			}
		}
	}
	if !special {
		return v
	}
	if !strings.ContainsAny(v, `"`) {
		return `"` + v + `"`
	}
	if !strings.ContainsAny(v, `'`) {
		return `'` + v + `'`
	}
	if bracesBalance(v) {
		return "{" + v + "}"
	}
	// No representation reads back exactly; braces keep the most.
	return "{" + v + "}"
}

func bracesBalance(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}
