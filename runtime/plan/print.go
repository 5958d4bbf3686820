package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Print writes the plan as text, one line per port, weight, step, slot,
// dispatch and carry, in the spirit of rlx-opt's output: stable, greppable
// and checked by lit tests (docs/runtime.md#the-plan).
func (p *Plan) Print(w io.Writer) error {
	var b strings.Builder
	s := p.Stats()
	fmt.Fprintf(&b, "plan @%s align %d guard %d\n", p.Function, p.Align, p.Guard)
	fmt.Fprintf(&b, "  arena %d bytes, lower bound %d (%.3fx); weights %d bytes; %d steps, %d dispatches\n",
		p.ArenaBytes, p.LowerBound, s.Ratio(), p.WeightBytes, s.Steps, s.Dispatches)
	for i, in := range p.Inputs {
		fmt.Fprintf(&b, "  input %d%s %s\n", i, portName(in.Name), p.slot(in.Value, true))
	}
	for _, wt := range p.Weights {
		kind := ""
		if wt.Kind == WeightConstant {
			kind = " constant"
		}
		fmt.Fprintf(&b, "  weight %d %q%s : %s @%d+%d\n", wt.ID, wt.Name, kind, wt.Type, wt.Offset, wt.Bytes)
	}
	for _, st := range p.Steps {
		fmt.Fprintf(&b, "  step %d %s", st.Index, st.Kind)
		if st.Symbol != "" {
			fmt.Fprintf(&b, " @%s", st.Symbol)
		}
		b.WriteByte('\n')
		for _, id := range st.Inputs {
			fmt.Fprintf(&b, "    in %s\n", p.slot(id, false))
		}
		for _, id := range st.Outputs {
			fmt.Fprintf(&b, "    out %s\n", p.slot(id, true))
		}
		for _, id := range st.Temps {
			fmt.Fprintf(&b, "    temp %s\n", p.slot(id, true))
		}
		if len(st.Weights) > 0 {
			names := make([]string, len(st.Weights))
			for i, id := range st.Weights {
				names[i] = fmt.Sprintf("%q", p.Weights[id].Name)
			}
			fmt.Fprintf(&b, "    weights %s\n", strings.Join(names, ", "))
		}
		for _, d := range st.Dispatches {
			fmt.Fprintf(&b, "    dispatch %s grid %s threadgroup %s tgmem %d\n", d.Kernel, triple(d.Grid), triple(d.Threadgroup), d.ThreadgroupMemory)
			parts := make([]string, len(d.Bindings))
			for i, bd := range d.Bindings {
				parts[i] = fmt.Sprintf("%s@%d+%d %s", bd.Buffer, bd.Offset, bd.Bytes, bd.Access)
			}
			fmt.Fprintf(&b, "      bind %s\n", strings.Join(parts, ", "))
		}
		for _, cp := range st.Copies {
			fmt.Fprintf(&b, "    copy %s -> %s\n", p.slot(cp.From, false), p.slot(cp.To, false))
		}
	}
	for i, o := range p.Outputs {
		fmt.Fprintf(&b, "  output %d%s %s\n", i, portName(o.Name), p.slot(o.Value, false))
	}
	for _, c := range p.Carries {
		fmt.Fprintf(&b, "  carry %q input %d <- output %d (%s)\n", c.Name, c.Input, c.Output, c.Mode)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// String returns the plan's text (Print).
func (p *Plan) String() string {
	var b strings.Builder
	p.Print(&b)
	return b.String()
}

func portName(n string) string {
	if n == "" {
		return ""
	}
	return fmt.Sprintf(" %q", n)
}

// slot describes a value: its name, type and bytes in the arena, with its
// live range when live is set.
func (p *Plan) slot(id int, live bool) string {
	v := p.Values[id]
	s := fmt.Sprintf("%s : %s @%d+%d", v.Name, v.Type, v.Offset, v.Bytes)
	if live {
		s += fmt.Sprintf(" live [%d, %d]", v.Def, v.Last)
	}
	return s
}

func triple(v [3]int) string { return fmt.Sprintf("[%d, %d, %d]", v[0], v[1], v[2]) }

// WriteJSON writes the plan as indented JSON (docs/runtime.md#json),
// types as they are spelled ("tensor<1x64xf32>", not escaped for HTML).
func (p *Plan) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	return enc.Encode(p)
}

// Clone returns a deep copy of the plan, through its JSON form (so the
// copy passes Check, as ReadJSON requires).
func (p *Plan) Clone() (*Plan, error) {
	var b bytes.Buffer
	if err := p.WriteJSON(&b); err != nil {
		return nil, err
	}
	return ReadJSON(&b)
}

// ReadJSON reads a plan written by WriteJSON: the version must be
// Version, every field must be known, and the plan must pass Check.
func ReadJSON(r io.Reader) (*Plan, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("plan: %v", err)
	}
	if head.Version == nil {
		return nil, fmt.Errorf("plan: no version field")
	}
	if *head.Version != Version {
		return nil, fmt.Errorf("plan: version %d, this rlx reads version %d", *head.Version, Version)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	p := &Plan{}
	if err := dec.Decode(p); err != nil {
		return nil, fmt.Errorf("plan: %v", err)
	}
	for i, v := range p.Values {
		if v == nil {
			return nil, fmt.Errorf("plan: value %d is null", i)
		}
	}
	for i, w := range p.Weights {
		if w == nil {
			return nil, fmt.Errorf("plan: weight %d is null", i)
		}
	}
	for i, st := range p.Steps {
		if st == nil {
			return nil, fmt.Errorf("plan: step %d is null", i)
		}
		for j, d := range st.Dispatches {
			if d == nil {
				return nil, fmt.Errorf("plan: step %d dispatch %d is null", i, j)
			}
		}
	}
	if err := Check(p); err != nil {
		return nil, fmt.Errorf("plan: %v", err)
	}
	return p, nil
}
