package lit

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A Subst is one substitution applied to RUN lines: a literal pattern such
// as "%s", a regular expression from the configuration, or a tool name
// matched as a whole word.
type Subst struct {
	Pattern string // the pattern as written; REDEFINE finds substitutions by it
	Value   string
	kind    substKind
	re      *regexp.Regexp
}

type substKind int

const (
	substLiteral substKind = iota
	substRegexp            // Python re.sub semantics for the value
	substTool              // whole-word tool name, as LLVM's ToolSubst
)

// LiteralSubst returns a substitution of the exact text pattern by value.
func LiteralSubst(pattern, value string) Subst {
	return Subst{Pattern: pattern, Value: value, kind: substLiteral}
}

// RegexpSubst returns a substitution of a regular expression, whose value is
// a Python re.sub template (\1, \g<name>, \\), as in a lit.cfg.py.
func RegexpSubst(pattern, value string) (Subst, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return Subst{}, err
	}
	if _, err := expandPyTemplate(value, nil, ""); err != nil {
		return Subst{}, err
	}
	return Subst{Pattern: pattern, Value: value, kind: substRegexp, re: re}, nil
}

// ToolSubst returns a substitution of a tool name by a command, matching as
// LLVM's ToolSubst does: the name must stand as a word, must not follow any
// of . - ^ / \ < and must not be followed by - or . ("filecheck" in
// "%t.filecheck" or "--filecheck-opt" is left alone).
func ToolSubst(name, command string) Subst {
	return Subst{Pattern: name, Value: command, kind: substTool}
}

func (s *Subst) apply(line string) string {
	switch s.kind {
	case substLiteral:
		return strings.ReplaceAll(line, s.Pattern, s.Value)
	case substRegexp:
		return s.re.ReplaceAllStringFunc(line, func(m string) string {
			// ReplaceAllStringFunc gives no submatches: match again,
			// anchored, to get them.
			sm := s.re.FindStringSubmatch(m)
			v, _ := expandPyTemplate(s.Value, sm, "")
			return v
		})
	}
	var b strings.Builder
	rest := line
	for {
		i := indexToolWord(rest, s.Pattern)
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:i])
		b.WriteString(s.Value)
		rest = rest[i+len(s.Pattern):]
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// indexToolWord finds name in s as ToolSubst's regex would.
func indexToolWord(s, name string) int {
	off := 0
	for {
		i := strings.Index(s[off:], name)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(name)
		ok := true
		if i > 0 {
			c := s[i-1]
			if isWordByte(c) && isWordByte(name[0]) || strings.IndexByte(`.-^/\<`, c) >= 0 {
				ok = false
			}
		}
		if end < len(s) {
			c := s[end]
			if isWordByte(c) && isWordByte(name[len(name)-1]) || c == '-' || c == '.' {
				ok = false
			}
		}
		if ok {
			return i
		}
		off = i + 1
	}
}

// expandPyTemplate expands a Python re.sub replacement template: \1..\99,
// \g<n>, \g<0>, \n, \t, \\ and friends. Unknown escapes of ASCII letters
// are errors, as in Python; other unknown escapes stay as written.
func expandPyTemplate(tmpl string, groups []string, _ string) (string, error) {
	if !strings.Contains(tmpl, `\`) {
		return tmpl, nil
	}
	var b strings.Builder
	group := func(n int) (string, error) {
		if groups == nil {
			return "", nil
		}
		if n >= len(groups) {
			return "", fmt.Errorf("invalid group reference %d", n)
		}
		return groups[n], nil
	}
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(tmpl) {
			return "", fmt.Errorf("bad escape (end of pattern)")
		}
		i++
		c = tmpl[i]
		switch {
		case c >= '0' && c <= '9':
			j := i + 1
			if j < len(tmpl) && tmpl[j] >= '0' && tmpl[j] <= '9' {
				j++
			}
			n, _ := strconv.Atoi(tmpl[i:j])
			g, err := group(n)
			if err != nil {
				return "", err
			}
			b.WriteString(g)
			i = j - 1
		case c == 'g':
			end := strings.IndexByte(tmpl[i:], '>')
			if i+1 >= len(tmpl) || tmpl[i+1] != '<' || end < 0 {
				return "", fmt.Errorf("missing group name")
			}
			n, err := strconv.Atoi(tmpl[i+2 : i+end])
			if err != nil {
				return "", fmt.Errorf("named groups are not supported in substitutions")
			}
			g, err := group(n)
			if err != nil {
				return "", err
			}
			b.WriteString(g)
			i += end
		case c == '\\':
			b.WriteByte('\\')
		case strings.IndexByte("abfnrtv", c) >= 0:
			b.WriteByte("\a\b\f\n\r\t\v"[strings.IndexByte("abfnrtv", c)])
		case c < 128 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'):
			return "", fmt.Errorf("bad escape \\%c", c)
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// pathSubsts returns lit's built-in substitutions for a test: %{pathsep},
// %basename_t, %{fs-*}, %/et and for each of s, S, p, t and T the plain,
// "/", ":real", ":regex_replacement" and ":" variants, in lit's order.
func pathSubsts(source, tmpDir, tmpBase string) []Subst {
	sourceDir := filepath.Dir(source)
	tmpName := tmpBase + ".tmp"
	subs := []Subst{
		LiteralSubst("%{pathsep}", string(os.PathListSeparator)),
		LiteralSubst("%basename_t", filepath.Base(tmpBase)),
		LiteralSubst("%{fs-src-root}", fsRoot(sourceDir)),
		LiteralSubst("%{fs-tmp-root}", fsRoot(tmpBase)),
		LiteralSubst("%{fs-sep}", string(filepath.Separator)),
		LiteralSubst("%/et", strings.ReplaceAll(tmpName, `\`, `\\\\\\\\`)),
	}
	for _, ps := range []struct{ letter, path string }{
		{"s", source}, {"S", sourceDir}, {"p", sourceDir}, {"t", tmpName}, {"T", tmpDir},
	} {
		slashed := filepath.ToSlash(ps.path)
		real := ps.path
		if r, err := filepath.EvalSymlinks(ps.path); err == nil {
			real = r
		}
		subs = append(subs,
			LiteralSubst("%"+ps.letter, ps.path),
			LiteralSubst("%/"+ps.letter, slashed),
			LiteralSubst("%{"+ps.letter+":real}", real),
			LiteralSubst("%{/"+ps.letter+":real}", filepath.ToSlash(real)),
			LiteralSubst("%{/"+ps.letter+":regex_replacement}", strings.NewReplacer("@", `\@`, "&", `\&`).Replace(slashed)),
			LiteralSubst("%:"+ps.letter, colonNormalize(ps.path)),
		)
	}
	return subs
}

func fsRoot(p string) string {
	if v := filepath.VolumeName(p); v != "" {
		return v + string(filepath.Separator)
	}
	if filepath.IsAbs(p) {
		return string(filepath.Separator)
	}
	return ""
}

func colonNormalize(p string) string {
	p = filepath.ToSlash(p)
	if v := filepath.VolumeName(p); len(v) == 2 && v[1] == ':' {
		return v[:1] + p[2:]
	}
	return strings.TrimPrefix(p, "/")
}

const percentMarker = "#_MARKER_#"

// A substituter expands RUN lines as lit's applySubstitutions does: "%%" is
// hidden, %if/%else is resolved against the features, then every
// substitution is applied in order, each over the whole line.
type substituter struct {
	substs    []Subst
	features  map[string]bool
	recursion int // lit's config.recursiveExpansionLimit; -1 for none
}

// adjust applies a DEFINE or REDEFINE, as lit does when it reaches one.
func (st *substituter) adjust(d *Directive) error {
	var existing []int
	for i, s := range st.substs {
		if strings.Contains(s.Pattern, d.Name) {
			existing = append(existing, i)
		}
	}
	var list strings.Builder
	for _, i := range existing {
		list.WriteString("\nExisting pattern: " + st.substs[i].Pattern)
	}
	if d.Keyword == "DEFINE:" {
		if len(existing) > 0 {
			return litErrorf("Substitution whose pattern contains '%s' is already defined before '%s' directive %s%s", d.Name, d.Keyword, d.Location(), list.String())
		}
		st.substs = append([]Subst{LiteralSubst(d.Name, d.Value)}, st.substs...)
		return nil
	}
	switch {
	case len(existing) > 1:
		return litErrorf("Multiple substitutions whose patterns contain '%s' are defined before '%s' directive %s%s", d.Name, d.Keyword, d.Location(), list.String())
	case len(existing) == 0:
		return litErrorf("No substitution for '%s' is defined before '%s' directive %s", d.Name, d.Keyword, d.Location())
	case st.substs[existing[0]].Pattern != d.Name:
		return litErrorf("Existing substitution whose pattern contains '%s' does not have the pattern specified by '%s' directive %s\nExpected pattern: %s%s", d.Name, d.Keyword, d.Location(), d.Name, list.String())
	}
	st.substs[existing[0]] = LiteralSubst(d.Name, d.Value)
	return nil
}

func (st *substituter) processLine(ln string) (string, error) {
	ln, err := substituteIfElse(strings.ReplaceAll(ln, "%%", percentMarker), st.features)
	if err != nil {
		return "", err
	}
	for i := range st.substs {
		ln = st.substs[i].apply(strings.ReplaceAll(ln, "%%", percentMarker))
	}
	return strings.TrimFunc(ln, isPySpace), nil
}

// expand returns the final text of one RUN line.
func (st *substituter) expand(ln string) (string, error) {
	out, err := st.processLine(ln)
	if err != nil {
		return "", err
	}
	if st.recursion >= 0 {
		steps := 0
		for out != ln && steps < st.recursion {
			ln = out
			if out, err = st.processLine(ln); err != nil {
				return "", err
			}
			steps++
		}
		if out != ln {
			return "", litErrorf("Recursive substitution of '%s' did not complete in the provided recursion limit (%d)", ln, st.recursion)
		}
	}
	return strings.ReplaceAll(out, percentMarker, "%"), nil
}

var elseRE = regexp.MustCompile(`^\s*%else\s*(%\{)?`)

// substituteIfElse resolves "%if cond %{ a %} %else %{ b %}" as lit does.
func substituteIfElse(ln string, features map[string]bool) (string, error) {
	if !strings.Contains(ln, "%if ") {
		return ln, nil
	}
	res, rest, err := parseIfElse(ln, false, features, 0)
	if err != nil {
		return "", err
	}
	if rest != "" {
		return "", fmt.Errorf("unexpected '%%}' in %%if substitution")
	}
	return res, nil
}

func parseIfElse(ln string, nested bool, features map[string]bool, depth int) (string, string, error) {
	if depth > 100 {
		return "", "", fmt.Errorf("%%if substitutions nested too deeply")
	}
	var result strings.Builder
	for ln != "" {
		if nested && strings.HasPrefix(ln, "%}") {
			break
		}
		if strings.HasPrefix(ln, "%if ") {
			ln = ln[4:]
			i := strings.Index(ln, "%{")
			if i < 0 {
				return "", "", fmt.Errorf("'%%{' is missing for %%if substitution")
			}
			cond := ln[:i]
			ln = ln[i+2:]
			then, rest, err := parseIfElse(ln, true, features, depth+1)
			if err != nil {
				return "", "", err
			}
			if !strings.HasPrefix(rest, "%}") {
				return "", "", fmt.Errorf("'%%}' is missing for %%if substitution")
			}
			ln = rest[2:]
			var els string
			if m := elseRE.FindStringSubmatchIndex(ln); m != nil {
				if m[2] < 0 {
					return "", "", fmt.Errorf("'%%{' is missing for %%else substitution")
				}
				els, rest, err = parseIfElse(ln[m[1]:], true, features, depth+1)
				if err != nil {
					return "", "", err
				}
				if !strings.HasPrefix(rest, "%}") {
					return "", "", fmt.Errorf("'%%}' is missing for %%else substitution")
				}
				ln = rest[2:]
			}
			ok, err := EvalBool(cond, features)
			if err != nil {
				return "", "", err
			}
			if ok {
				result.WriteString(then)
			} else {
				result.WriteString(els)
			}
			continue
		}
		// Plain text up to the next %if (or %} when nested).
		end := len(ln)
		if i := strings.Index(ln, "%if"); i >= 0 {
			end = i
		}
		if nested {
			if i := strings.Index(ln, "%}"); i >= 0 && i < end {
				end = i
			}
		}
		if end == 0 {
			// "%if" not followed by a space is plain text.
			end = 3
		}
		result.WriteString(ln[:end])
		ln = ln[end:]
	}
	return result.String(), ln, nil
}
