package opstats

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// Count returns how many ops of each name op contains (op included).
func Count(op *ir.Operation) map[string]int {
	counts := map[string]int{}
	op.Walk(func(o *ir.Operation) { counts[o.Name()]++ })
	return counts
}

// Write prints the counts of op to w: MLIR's "Operations encountered:"
// table, or with asJSON a JSON object of name → count, names sorted.
func Write(w io.Writer, op *ir.Operation, asJSON bool) error {
	counts := Count(op)
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Strings(names)
	var sb strings.Builder
	if asJSON {
		sb.WriteString("{\n")
		for i, n := range names {
			fmt.Fprintf(&sb, "  \"%s\" : %d", n, counts[n])
			if i != len(names)-1 {
				sb.WriteString(",\n")
			} else {
				sb.WriteString("\n")
			}
		}
		sb.WriteString("}\n")
	} else {
		sb.WriteString("Operations encountered:\n-----------------------\n")
		// Names are aligned on the dot between dialect and op name.
		maxDialect, maxOp := 0, 0
		for _, n := range names {
			d, o := split(n)
			maxDialect = max(maxDialect, len(d))
			maxOp = max(maxOp, len(o))
		}
		for _, n := range names {
			d, o := split(n)
			if d == "" {
				sb.WriteString(strings.Repeat(" ", maxDialect+3))
			} else {
				sb.WriteString(strings.Repeat(" ", maxDialect+2-len(d)))
				sb.WriteString(d)
				sb.WriteByte('.')
			}
			fmt.Fprintf(&sb, "%-*s , %d\n", maxOp, o, counts[n])
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// split separates the dialect prefix from the op name at the first dot;
// a name without a dot has no dialect.
func split(name string) (dialect, op string) {
	if d, o, ok := strings.Cut(name, "."); ok && o != "" {
		return d, o
	}
	return "", strings.TrimSuffix(name, ".")
}
