package mps

import (
	"fmt"
	"strconv"
	"strings"

	dmps "github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/ir"
)

// Options are the emitter's options.
type Options struct {
	// MacOS is the deployment target: methods newer than it are called
	// under `@available` with a fallback. The zero Version means
	// DefaultVersion.
	MacOS Version
	// MaxInlineBytes bounds the constants written into the source; larger
	// ones are passed in (Builder.Constants). 0 means DefaultMaxInlineBytes;
	// a negative value passes every non-splat constant in.
	MaxInlineBytes int
	// Input names the module's source for the generated files' first
	// comment ("" leaves it out).
	Input string
}

// DefaultMaxInlineBytes is the largest constant written into the source
// by default.
const DefaultMaxInlineBytes = 256

// Output is what Emit writes.
type Output struct {
	// Source is the Objective-C file (.m) with one builder per region. It
	// imports Foundation and MetalPerformanceShadersGraph itself, so it
	// compiles without the header.
	Source []byte
	// Header declares the builders (.h).
	Header []byte
	// Builders describe the builders, in the order of the regions.
	Builders []Builder
}

// Builder describes the builder of one mps.subgraph.
type Builder struct {
	// Symbol is the region's symbol ("decode_mps0").
	Symbol string
	// Function is the C function ("rlx_build_decode_mps0").
	Function string
	// Inputs are the types of the tensors the builder takes, the region's
	// arguments in order; Results are the types of those it returns.
	Inputs, Results []ir.Type
	// Weights are the region's placeholders: the runtime feeds each by
	// name (the graph.param of that name).
	Weights []Weight
	// Constants are the constants passed in, by key.
	Constants []Constant
}

// Weight is a placeholder the runtime feeds.
type Weight struct {
	Name string
	Type ir.Type
}

// Constant is a constant a builder takes from its constants dictionary:
// Data are the bytes the NSData must hold (little-endian elements, one
// byte per i1).
type Constant struct {
	Key  string
	Type ir.Type
	Data []byte
}

// Emit writes an Objective-C builder for every mps.subgraph of module (a
// builtin.module or a func.func), in the order they appear, after
// lower-to-mps: every op in a region must be an mps primitive. A region
// that is not, or that uses what the deployment target lacks
// (MPSDataTypeBFloat16 before macOS 14), is an error located at the op; a
// module without regions is an error too.
// The output depends only on the module and the options.
func Emit(module *ir.Operation, opts Options) (*Output, error) {
	if opts.MacOS == (Version{}) {
		opts.MacOS = DefaultVersion
	}
	if opts.MacOS.Less(MinVersion) {
		return nil, fmt.Errorf("macOS %s is older than %s, the oldest the MPSGraph builders support", opts.MacOS, MinVersion)
	}
	if opts.MaxInlineBytes == 0 {
		opts.MaxInlineBytes = DefaultMaxInlineBytes
	}
	var regions []*ir.Operation
	module.Walk(func(op *ir.Operation) {
		if op.Name() == dmps.SubgraphName && regionop.IsOutlined(op) {
			regions = append(regions, op)
		}
	})
	if len(regions) == 0 {
		return nil, fmt.Errorf("'%s' op holds no mps.subgraph to build: run --hybrid-split, then --lower-to-mps", module.Name())
	}
	e := &emitter{opts: opts, functions: map[string]string{}}
	var bodies []string
	for _, sg := range regions {
		body, b, err := e.region(sg)
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, body)
		e.out.Builders = append(e.out.Builders, b)
	}
	e.out.Source = []byte(e.source(bodies))
	e.out.Header = []byte(e.header())
	return &e.out, nil
}

type emitter struct {
	opts      Options
	out       Output
	functions map[string]string // C function → symbol, for collisions
	// helpers used by some builder, in the order they are written.
	weightHelper, rsqrtHelper, permuteHelper, sdpaHelper bool
	statics                                              strings.Builder // inline constant arrays
}

// regionEmitter writes one builder.
type regionEmitter struct {
	*emitter
	sg    *ir.Operation
	b     *Builder
	names map[*ir.Value]string
	code  strings.Builder
	next  int
}

func (e *emitter) region(sg *ir.Operation) (string, Builder, error) {
	sym := ir.SymbolName(sg)
	fnName := "rlx_build_" + cIdent(sym)
	if prev, ok := e.functions[fnName]; ok {
		d := ir.OpError(sg, "builder %s would also be the builder of @%s", fnName, prev)
		return "", Builder{}, d
	}
	e.functions[fnName] = sym
	body := sg.Region(0).First()
	r := &regionEmitter{emitter: e, sg: sg, names: map[*ir.Value]string{},
		b: &Builder{Symbol: sym, Function: fnName, Inputs: body.ArgumentTypes(), Results: body.Last().OperandTypes()}}
	for op := range body.Ops() {
		if op == body.Last() {
			break
		}
		if err := r.op(op); err != nil {
			if d, ok := err.(*ir.Diagnostic); ok {
				d.AttachNote(sg.Loc(), "in the mps.subgraph @"+sym)
				return "", Builder{}, d
			}
			return "", Builder{}, err
		}
	}
	var rets []string
	for _, v := range body.Last().Operands() {
		n, err := r.use(v)
		if err != nil {
			return "", Builder{}, err
		}
		rets = append(rets, n)
	}
	var f strings.Builder
	fmt.Fprintf(&f, "// %s builds @%s into graph (see the header).\n", fnName, sym)
	fmt.Fprintf(&f, "NSArray<MPSGraphTensor *> *_Nullable %s(%s) {\n", fnName, builderParams)
	fmt.Fprintf(&f, "  if ([inputs count] != %d) {\n    return nil;\n  }\n", body.NumArguments())
	for i, c := range r.b.Constants {
		fmt.Fprintf(&f, "  NSData *_Nullable c%d = [constants objectForKey:%s];\n", i, objcString(c.Key))
		fmt.Fprintf(&f, "  if (c%d == nil || [c%d length] != %d) {\n    return nil;\n  }\n", i, i, len(c.Data))
	}
	for i, a := range body.Arguments() {
		if a.HasUses() || containsValue(body.Last().Operands(), a) {
			fmt.Fprintf(&f, "  MPSGraphTensor *%s = [inputs objectAtIndex:%d];\n", r.names[a], i)
		}
	}
	f.WriteString(r.code.String())
	fmt.Fprintf(&f, "  return @[%s];\n}\n", strings.Join(rets, ", "))
	return f.String(), *r.b, nil
}

// builderParams is every builder's parameter list.
const builderParams = "MPSGraph *graph, NSArray<MPSGraphTensor *> *inputs, " +
	"NSMutableDictionary<NSString *, MPSGraphTensor *> *weights, NSDictionary<NSString *, NSData *> *constants"

func containsValue(vs []*ir.Value, v *ir.Value) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// name returns the C variable of v, naming block arguments on first use.
func (r *regionEmitter) use(v *ir.Value) (string, error) {
	if n, ok := r.names[v]; ok {
		return n, nil
	}
	if v.OwnerBlock() == r.sg.Region(0).First() && v.DefiningOp() == nil {
		n := "in" + strconv.Itoa(v.Index())
		r.names[v] = n
		return n, nil
	}
	return "", fmt.Errorf("value %v is not defined in @%s", v, ir.SymbolName(r.sg))
}

// define names op's result and returns the name.
func (r *regionEmitter) define(op *ir.Operation) string {
	n := "t" + strconv.Itoa(r.next)
	r.next++
	r.names[op.Result(0)] = n
	return n
}

// cIdent makes a C identifier of a symbol name.
func cIdent(s string) string {
	var b strings.Builder
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c >= '0' && c <= '9' && i > 0:
			b.WriteRune(c)
		case c >= '0' && c <= '9':
			b.WriteString("_")
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// objcString quotes s as an Objective-C string literal.
func objcString(s string) string {
	var b strings.Builder
	b.WriteString(`@"`)
	for _, c := range []byte(s) {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\x%02x\"\"", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
