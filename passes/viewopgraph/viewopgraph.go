package viewopgraph

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/internal/llvmescape"
	"github.com/rlx-compiler/rlx/ir"
)

// Options are the pass options, with MLIR's names and defaults.
type Options struct {
	// MaxLabelLen truncates attributes and result types (max-label-len=20).
	MaxLabelLen uint
	// PrintAttrs adds the attributes to op labels (print-attrs=true).
	PrintAttrs bool
	// PrintControlFlowEdges links consecutive ops of a block
	// (print-control-flow-edges=false).
	PrintControlFlowEdges bool
	// PrintDataFlowEdges links operands to their users
	// (print-data-flow-edges=true).
	PrintDataFlowEdges bool
	// PrintResultTypes adds the result types to op labels
	// (print-result-types=true).
	PrintResultTypes bool
	// ColorBy is "op" (MLIR's colouring, one colour per op name) or
	// "region" (one colour per name of the op holding the node's block).
	ColorBy string
}

// DefaultOptions returns mlir-opt's defaults.
func DefaultOptions() Options {
	return Options{MaxLabelLen: 20, PrintAttrs: true, PrintDataFlowEdges: true, PrintResultTypes: true, ColorBy: "op"}
}

// largeAttrLimit is the number of elements above which elements and array
// attributes are elided, MLIR's default.
const largeAttrLimit = 16

// Write writes the DOT graph of op to w.
func Write(w io.Writer, op *ir.Operation, o Options) error {
	if o.ColorBy != "op" && o.ColorBy != "region" && o.ColorBy != "" {
		return fmt.Errorf("color-by: invalid value %q (expected op or region)", o.ColorBy)
	}
	g := &graph{opts: o, nodes: map[*ir.Value]node{}}
	g.colors(op)
	g.line("digraph G {")
	g.indent++
	g.line("compound = true;")
	g.operation(op)
	if o.PrintDataFlowEdges {
		for _, e := range g.dataFlow {
			g.edge(g.nodes[e.from], e.to, e.label, "solid")
		}
	}
	for _, e := range g.edges {
		g.line(e + ";")
	}
	g.indent--
	g.line("}")
	_, err := io.WriteString(w, g.sb.String())
	return err
}

// node is a DOT node; a cluster is represented by its invisible anchor
// node, with cluster set.
type node struct {
	id      int
	cluster int // 0 when the node is not a cluster anchor
}

type dataFlowEdge struct {
	from  *ir.Value
	to    node
	label string
}

type graph struct {
	opts     Options
	sb       strings.Builder
	indent   int
	counter  int
	nodes    map[*ir.Value]node
	edges    []string
	dataFlow []dataFlowEdge
	color    map[string]string
}

// colorKey is what the colour of a node depends on.
func (g *graph) colorKey(op *ir.Operation) string {
	if g.opts.ColorBy == "region" {
		if p := op.ParentOp(); p != nil {
			return p.Name()
		}
		return ""
	}
	return op.Name()
}

// colors spreads the hues of the HSV circle over the keys, in the order
// a post-order walk first meets them.
func (g *graph) colors(root *ir.Operation) {
	var keys []string
	seen := map[string]bool{}
	root.WalkPostOrder(func(op *ir.Operation) {
		if k := g.colorKey(op); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	})
	g.color = map[string]string{}
	for i, k := range keys {
		g.color[k] = strconv.FormatFloat(float64(i)/float64(len(keys)), 'f', 6, 64) + " 1.0 1.0"
	}
}

func (g *graph) line(s string) {
	g.sb.WriteString(strings.Repeat("  ", g.indent))
	g.sb.WriteString(s)
	g.sb.WriteByte('\n')
}

func attrList(attrs map[string]string) string {
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " = " + attrs[k]
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (g *graph) nodeStmt(label, shape, fill string) node {
	g.counter++
	attrs := map[string]string{"label": quote(label), "shape": shape}
	if fill != "" {
		attrs["fillcolor"] = quote(fill)
		attrs["style"] = "filled"
	}
	g.line(fmt.Sprintf("v%d %s;", g.counter, attrList(attrs)))
	return node{id: g.counter}
}

func (g *graph) cluster(label string, body func()) node {
	g.counter++
	id := g.counter
	g.line(fmt.Sprintf("subgraph cluster_%d {", id))
	g.indent++
	anchor := g.nodeStmt(" ", "plain", "")
	g.line("label = " + quote(label) + ";")
	body()
	g.indent--
	g.line("}")
	return node{id: anchor.id, cluster: id}
}

func (g *graph) edge(from, to node, label, style string) {
	attrs := map[string]string{"style": style}
	// Edges clipped at a cluster boundary keep no label: it would float.
	if from.cluster == 0 && to.cluster == 0 {
		attrs["label"] = quote(label)
	}
	if from.cluster != 0 {
		attrs["ltail"] = "cluster_" + strconv.Itoa(from.cluster)
	}
	if to.cluster != 0 {
		attrs["lhead"] = "cluster_" + strconv.Itoa(to.cluster)
	}
	g.edges = append(g.edges, fmt.Sprintf("v%d -> v%d %s", from.id, to.id, attrList(attrs)))
}

func (g *graph) operation(op *ir.Operation) node {
	var n node
	if op.NumRegions() > 0 {
		n = g.cluster(g.label(op), func() {
			for i := 0; i < op.NumRegions(); i++ {
				for b := range op.Region(i).Blocks() {
					g.block(b)
				}
			}
		})
	} else {
		n = g.nodeStmt(g.label(op), "ellipse", g.color[g.colorKey(op)])
	}
	for i := 0; i < op.NumOperands(); i++ {
		label := ""
		if op.NumOperands() != 1 {
			label = strconv.Itoa(i)
		}
		g.dataFlow = append(g.dataFlow, dataFlowEdge{op.Operand(i), n, label})
	}
	for i := 0; i < op.NumResults(); i++ {
		g.nodes[op.Result(i)] = n
	}
	return n
}

func (g *graph) block(b *ir.Block) {
	g.cluster("", func() {
		for i, a := range b.Arguments() {
			g.nodes[a] = g.nodeStmt("arg"+strconv.Itoa(i), "ellipse", "")
		}
		var prev node
		first := true
		for op := range b.Ops() {
			n := g.operation(op)
			if g.opts.PrintControlFlowEdges && !first {
				g.edge(prev, n, "", "dashed")
			}
			prev, first = n, false
		}
	})
}

func (g *graph) label(op *ir.Operation) string {
	var sb strings.Builder
	sb.WriteString(op.Name())
	if g.opts.PrintResultTypes {
		types := make([]string, op.NumResults())
		for i := range types {
			types[i] = op.Result(i).Type().String()
		}
		sb.WriteString(" : (" + g.truncate(strings.Join(types, ", ")) + ")")
	}
	if g.opts.PrintAttrs {
		sb.WriteString("\n")
		for _, a := range allAttrs(op) {
			sb.WriteString("\n" + a.Name + ": " + g.attr(a.Value))
		}
	}
	return sb.String()
}

// allAttrs returns the properties and discardable attributes of op sorted
// by name, as MLIR's attribute dictionary of an op lists them.
func allAttrs(op *ir.Operation) []ir.NamedAttr {
	var out []ir.NamedAttr
	if d := op.PropsDict(); d != nil {
		out = append(out, d.Entries...)
	}
	if d := op.Attrs(); d != nil {
		out = append(out, d.Entries...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// attr prints an attribute, eliding large element and array attributes.
func (g *graph) attr(a ir.Attribute) string {
	switch a := a.(type) {
	case *ir.DenseElementsAttr:
		if a.Splat {
			return a.String()
		}
		if n := a.NumElements(); n > largeAttrLimit {
			return elided(a.Type)
		}
	case *ir.DenseStringElementsAttr:
		if a.Splat {
			return a.String()
		}
		if ir.NumElements(a.Type) > largeAttrLimit {
			return elided(a.Type)
		}
	case *ir.DenseResourceElementsAttr:
		if ir.NumElements(a.Type) > largeAttrLimit {
			return elided(a.Type)
		}
	case *ir.ArrayAttr:
		if len(a.Elems) > largeAttrLimit {
			return "[...]"
		}
	}
	return g.truncate(a.String())
}

func elided(t ir.ShapedType) string {
	rank := len(t.Dims())
	return strings.Repeat("[", rank) + "..." + strings.Repeat("]", rank) + " : " + t.String()
}

func (g *graph) truncate(s string) string {
	if uint(len(s)) <= g.opts.MaxLabelLen {
		return s
	}
	return s[:g.opts.MaxLabelLen] + "..."
}

// quote puts s in double quotes with LLVM's write_escaped escapes.
func quote(s string) string { return `"` + llvmescape.String(s) + `"` }
