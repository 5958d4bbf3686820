package lit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// diffFlags are the options of lit's builtin diff.
type diffFlags struct {
	ignoreAllSpace   bool // -w
	ignoreSpaceDelta bool // -b
	ignoreRE         *regexp.Regexp
	unified          bool
	context          int
	recursive        bool
	stripTrailingCR  bool
}

// toolDiff is lit's builtin diff (lit/builtin_commands/diff.py): -u, -U n,
// -b, -w, -I re, -r and --strip-trailing-cr; a context diff by default. It
// exits 1 on differences and on errors.
func toolDiff(_ context.Context, args []string, env *shellEnv, stdin io.Reader, stdout, stderr io.Writer) int {
	f := diffFlags{context: 3}
	var operands []string
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			operands = append(operands, rest[i+1:]...)
			i = len(rest)
		case a == "--strip-trailing-cr":
			f.stripTrailingCR = true
		case strings.HasPrefix(a, "--"):
			fmt.Fprintf(stderr, "Unsupported: 'diff': option %s not recognized\n", a)
			return 1
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				switch c := a[j]; c {
				case 'w':
					f.ignoreAllSpace = true
				case 'b':
					f.ignoreSpaceDelta = true
				case 'u':
					f.unified = true
				case 'r':
					f.recursive = true
				case 'I', 'U':
					val := a[j+1:]
					if val == "" {
						if i+1 == len(rest) {
							fmt.Fprintf(stderr, "Unsupported: 'diff': option -%c requires argument\n", c)
							return 1
						}
						i++
						val = rest[i]
					}
					j = len(a)
					if c == 'U' {
						n, err := strconv.Atoi(strings.TrimSpace(val))
						if err != nil || n < 0 {
							fmt.Fprintf(stderr, "Error: invalid '-U' argument: %s\n", val)
							return 1
						}
						f.unified, f.context = true, n
						continue
					}
					re, err := regexp.Compile("^(?:" + val + ")")
					if err != nil {
						fmt.Fprintf(stderr, "Error: invalid '-I' argument: %s\n", val)
						return 1
					}
					f.ignoreRE = re
				default:
					fmt.Fprintf(stderr, "Unsupported: 'diff': option -%c not recognized\n", c)
					return 1
				}
			}
		default:
			operands = append(operands, a)
		}
	}
	if len(operands) != 2 {
		fmt.Fprintf(stderr, "Error: missing or extra operand\n")
		return 1
	}
	for i, p := range operands {
		if p != "-" {
			operands[i] = env.abs(p)
		} else if f.recursive {
			fmt.Fprintf(stderr, "Error: cannot recursively compare '-'\n")
			return 1
		}
	}
	d := &differ{flags: f, stdin: stdin, out: stdout}
	var status int
	var err error
	if f.recursive {
		status, err = d.compareTrees(operands[0], operands[1])
	} else {
		status, err = d.compareFiles(operands[0], operands[1])
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			fmt.Fprintf(stderr, "Error: 'diff' command failed, %s: '%s'\n", pyStrerror(pe.Err), pe.Path)
		} else {
			fmt.Fprintf(stderr, "Error: 'diff' command failed, %v\n", err)
		}
		return 1
	}
	return status
}

type differ struct {
	flags diffFlags
	stdin io.Reader
	out   io.Writer
}

func (d *differ) readLines(path string) ([]string, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(d.stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	return splitLinesKeepEnds(string(data)), nil
}

// splitLinesKeepEnds splits after each '\n', as Python's readlines.
func splitLinesKeepEnds(s string) []string {
	var lines []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

func (d *differ) normalize(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if d.flags.ignoreRE != nil && d.flags.ignoreRE.MatchString(l) {
			continue
		}
		if d.flags.stripTrailingCR {
			l = strings.ReplaceAll(l, "\r\n", "\n")
		}
		if d.flags.ignoreAllSpace || d.flags.ignoreSpaceDelta {
			sep := " "
			if d.flags.ignoreAllSpace {
				sep = ""
			}
			l = strings.Join(strings.Fields(l), sep) + "\n"
		}
		out = append(out, l)
	}
	return out
}

func (d *differ) compareFiles(a, b string) (int, error) {
	al, err := d.readLines(a)
	if err != nil {
		return 1, err
	}
	bl, err := d.readLines(b)
	if err != nil {
		return 1, err
	}
	al, bl = d.normalize(al), d.normalize(bl)
	groups := groupOpcodes(opcodes(al, bl), d.flags.context)
	if len(groups) == 0 {
		return 0, nil
	}
	var w bytes.Buffer
	if d.flags.unified {
		writeUnified(&w, a, b, al, bl, groups)
	} else {
		writeContext(&w, a, b, al, bl, groups)
	}
	d.out.Write(w.Bytes())
	return 1, nil
}

// A dirTree is a file (children nil) or a directory, as diff.py's getDirTree.
type dirTree struct {
	name     string
	children []dirTree
	isDir    bool
}

func readTree(base, name string) (dirTree, error) {
	p := filepath.Join(base, name)
	fi, err := os.Stat(p)
	if err != nil {
		return dirTree{}, err
	}
	t := dirTree{name: name, isDir: fi.IsDir()}
	if !t.isDir {
		return t, nil
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return dirTree{}, err
	}
	for _, e := range ents {
		c, err := readTree(p, e.Name())
		if err != nil {
			return dirTree{}, err
		}
		t.children = append(t.children, c)
	}
	sort.Slice(t.children, func(i, j int) bool { return t.children[i].name < t.children[j].name })
	return t, nil
}

func (d *differ) compareTrees(a, b string) (int, error) {
	ta, err := readTree(filepath.Dir(a), filepath.Base(a))
	if err != nil {
		return 1, err
	}
	tb, err := readTree(filepath.Dir(b), filepath.Base(b))
	if err != nil {
		return 1, err
	}
	return d.compareTree(ta, tb, filepath.Dir(a), filepath.Dir(b))
}

func (d *differ) compareTree(l, r dirTree, lbase, rbase string) (int, error) {
	lp, rp := filepath.Join(lbase, l.name), filepath.Join(rbase, r.name)
	switch {
	case !l.isDir && !r.isDir:
		return d.compareFiles(lp, rp)
	case !l.isDir:
		fmt.Fprintf(d.out, "File %s is a regular %sfile while file %s is a directory\n", lp, emptyWord(lp), rp)
		return 1, nil
	case !r.isDir:
		fmt.Fprintf(d.out, "File %s is a directory while file %s is a regular %sfile\n", lp, rp, emptyWord(rp))
		return 1, nil
	}
	status := 0
	i, j := 0, 0
	for i < len(l.children) && j < len(r.children) {
		ln, rn := l.children[i].name, r.children[j].name
		switch {
		case ln < rn:
			fmt.Fprintf(d.out, "Only in %s: %s\n", lp, ln)
			status = 1
			i++
		case ln > rn:
			fmt.Fprintf(d.out, "Only in %s: %s\n", rp, rn)
			status = 1
			j++
		default:
			s, err := d.compareTree(l.children[i], r.children[j], lp, rp)
			if err != nil {
				return 1, err
			}
			status |= s
			i++
			j++
		}
	}
	for ; i < len(l.children); i++ {
		fmt.Fprintf(d.out, "Only in %s: %s\n", lp, l.children[i].name)
		status = 1
	}
	for ; j < len(r.children); j++ {
		fmt.Fprintf(d.out, "Only in %s: %s\n", rp, r.children[j].name)
		status = 1
	}
	return status, nil
}

func emptyWord(p string) string {
	if fi, err := os.Stat(p); err == nil && fi.Size() == 0 {
		return "empty "
	}
	return ""
}

// An opcode is one of difflib's: tag 'e'qual, 'r'eplace, 'd'elete or
// 'i'nsert, turning a[i1:i2] into b[j1:j2].
type opcode struct {
	tag            byte
	i1, i2, j1, j2 int
}

// opcodes computes an edit script from a longest common subsequence,
// after trimming the common prefix and suffix.
func opcodes(a, b []string) []opcode {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	// Matched pairs (i, j) in the middle part, in order.
	type pair struct{ i, j int }
	var pairs []pair
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma) > 0 && len(mb) > 0 && len(ma)*len(mb) <= 1<<22 {
		n, m := len(ma), len(mb)
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		for i, j := 0, 0; i < n && j < m; {
			switch {
			case ma[i] == mb[j]:
				pairs = append(pairs, pair{pre + i, pre + j})
				i++
				j++
			case lcs[i+1][j] >= lcs[i][j+1]:
				i++
			default:
				j++
			}
		}
	}
	var all []pair
	for k := 0; k < pre; k++ {
		all = append(all, pair{k, k})
	}
	all = append(all, pairs...)
	for k := suf; k > 0; k-- {
		all = append(all, pair{len(a) - k, len(b) - k})
	}
	all = append(all, pair{len(a), len(b)}) // sentinel
	var ops []opcode
	i, j := 0, 0
	for k := 0; k < len(all); {
		p := all[k]
		switch {
		case p.i > i && p.j > j:
			ops = append(ops, opcode{'r', i, p.i, j, p.j})
		case p.i > i:
			ops = append(ops, opcode{'d', i, p.i, j, p.j})
		case p.j > j:
			ops = append(ops, opcode{'i', i, p.i, j, p.j})
		}
		if p.i == len(a) && p.j == len(b) {
			break
		}
		// A run of consecutive matches is one equal opcode.
		e := k
		for e+1 < len(all) && all[e+1].i == all[e].i+1 && all[e+1].j == all[e].j+1 && all[e+1].i < len(a) {
			e++
		}
		ops = append(ops, opcode{'e', p.i, all[e].i + 1, p.j, all[e].j + 1})
		i, j = all[e].i+1, all[e].j+1
		k = e + 1
	}
	return ops
}

// groupOpcodes is difflib's get_grouped_opcodes.
func groupOpcodes(codes []opcode, n int) [][]opcode {
	if len(codes) == 0 {
		codes = []opcode{{'e', 0, 1, 0, 1}}
	}
	if c := &codes[0]; c.tag == 'e' {
		c.i1, c.j1 = max(c.i1, c.i2-n), max(c.j1, c.j2-n)
	}
	if c := &codes[len(codes)-1]; c.tag == 'e' {
		c.i2, c.j2 = min(c.i2, c.i1+n), min(c.j2, c.j1+n)
	}
	var groups [][]opcode
	var group []opcode
	for _, c := range codes {
		if c.tag == 'e' && c.i2-c.i1 > 2*n {
			group = append(group, opcode{'e', c.i1, min(c.i2, c.i1+n), c.j1, min(c.j2, c.j1+n)})
			groups = append(groups, group)
			group = nil
			c.i1, c.j1 = max(c.i1, c.i2-n), max(c.j1, c.j2-n)
		}
		group = append(group, c)
	}
	if len(group) > 0 && !(len(group) == 1 && group[0].tag == 'e') {
		groups = append(groups, group)
	}
	// A leading all-equal group can appear when the first run was split.
	out := groups[:0]
	for _, g := range groups {
		if !(len(g) == 1 && g[0].tag == 'e') {
			out = append(out, g)
		}
	}
	return out
}

func unifiedRange(start, stop int) string {
	begin, length := start+1, stop-start
	if length == 1 {
		return strconv.Itoa(begin)
	}
	if length == 0 {
		begin--
	}
	return fmt.Sprintf("%d,%d", begin, length)
}

func contextRange(start, stop int) string {
	begin, length := start+1, stop-start
	if length == 0 {
		begin--
	}
	if length <= 1 {
		return strconv.Itoa(begin)
	}
	return fmt.Sprintf("%d,%d", begin, begin+length-1)
}

func writeUnified(w *bytes.Buffer, from, to string, a, b []string, groups [][]opcode) {
	fmt.Fprintf(w, "--- %s\n+++ %s\n", from, to)
	for _, g := range groups {
		first, last := g[0], g[len(g)-1]
		fmt.Fprintf(w, "@@ -%s +%s @@\n", unifiedRange(first.i1, last.i2), unifiedRange(first.j1, last.j2))
		for _, c := range g {
			if c.tag == 'e' {
				for _, l := range a[c.i1:c.i2] {
					w.WriteString(" " + l)
				}
				continue
			}
			if c.tag == 'r' || c.tag == 'd' {
				for _, l := range a[c.i1:c.i2] {
					w.WriteString("-" + l)
				}
			}
			if c.tag == 'r' || c.tag == 'i' {
				for _, l := range b[c.j1:c.j2] {
					w.WriteString("+" + l)
				}
			}
		}
	}
}

func writeContext(w *bytes.Buffer, from, to string, a, b []string, groups [][]opcode) {
	prefix := map[byte]string{'i': "+ ", 'd': "- ", 'r': "! ", 'e': "  "}
	fmt.Fprintf(w, "*** %s\n--- %s\n", from, to)
	for _, g := range groups {
		first, last := g[0], g[len(g)-1]
		w.WriteString("***************\n")
		fmt.Fprintf(w, "*** %s ****\n", contextRange(first.i1, last.i2))
		for _, c := range g {
			if c.tag == 'r' || c.tag == 'd' {
				for _, c := range g {
					if c.tag != 'i' {
						for _, l := range a[c.i1:c.i2] {
							w.WriteString(prefix[c.tag] + l)
						}
					}
				}
				break
			}
		}
		fmt.Fprintf(w, "--- %s ----\n", contextRange(first.j1, last.j2))
		for _, c := range g {
			if c.tag == 'r' || c.tag == 'i' {
				for _, c := range g {
					if c.tag != 'd' {
						for _, l := range b[c.j1:c.j2] {
							w.WriteString(prefix[c.tag] + l)
						}
					}
				}
				break
			}
		}
	}
}
