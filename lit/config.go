package lit

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// ConfigName is the file that marks a suite root, as for LLVM's lit.
const ConfigName = "lit.cfg.py"

// LLVMOnlyMarker is the comment line after which a lit.cfg.py is read only
// by LLVM's lit. What follows it (finding tools, setting PATH, choosing the
// exec root) our lit does natively from its flags.
const LLVMOnlyMarker = "# rlx-lit: llvm-lit only below"

// A Config is a suite's configuration: the fields of LLVM lit's
// TestingConfig that a declarative lit.cfg.py sets.
type Config struct {
	Name        string
	Suffixes    []string // file extensions of tests, with the dot
	Excludes    []string // base names of files and directories to skip
	Features    map[string]bool
	Substs      []Subst           // config.substitutions, in order
	Environment map[string]string // config.environment additions
	Tools       []string          // config.rlx_tools: names substituted from the tools directory
	PipeFail    bool
	Recursion   int // config.recursiveExpansionLimit; -1 when unset
	SourceRoot  string
	Path        string // the lit.cfg.py file
}

// ParseConfig reads the restricted, declarative subset of Python that a
// lit.cfg.py may use up to LLVMOnlyMarker (see docs/lit.md):
//
//	import x / from x import y              (ignored)
//	config.name = "s"
//	config.suffixes = [".mlir", ...]         (also excludes)
//	config.suffixes.append("s")              (also .add, .extend, .update)
//	config.available_features.add("f")       (also .update([...]))
//	config.substitutions.append(("re", "value"))
//	config.environment["VAR"] = "value"
//	config.test_format = lit.formats.ShTest() | ShTest(False) | ShTest(execute_external=False)
//	config.test_source_root = os.path.dirname(__file__)
//	config.pipefail = True | False
//	config.recursiveExpansionLimit = 10
//	config.rlx_tools = ["rlx-opt", ...]
//
// Anything else is an error naming the file and line.
func ParseConfig(path string, src []byte) (*Config, error) {
	c := &Config{
		Features:    map[string]bool{},
		Environment: map[string]string{},
		PipeFail:    true,
		Recursion:   -1,
		SourceRoot:  filepath.Dir(path),
		Path:        path,
	}
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		start := i
		line := lines[i]
		if strings.TrimSpace(line) == LLVMOnlyMarker {
			break
		}
		stmt := stripComment(line)
		// A statement continues while brackets are open.
		for depth(stmt) > 0 && i+1 < len(lines) {
			i++
			stmt += " " + stripComment(lines[i])
		}
		stmt = strings.TrimSpace(stmt)
		if stmt == "" {
			continue
		}
		if err := c.exec(stmt); err != nil {
			return nil, fmt.Errorf("%s:%d: %v (our lit reads only a declarative subset of lit.cfg.py; put Python-only code after the line %q)", path, start+1, err, LLVMOnlyMarker)
		}
	}
	if len(c.Suffixes) == 0 {
		return nil, fmt.Errorf("%s: config.suffixes is not set", path)
	}
	return c, nil
}

// eachUnquoted calls fn with the index of each byte of s outside string
// literals, until fn returns false.
func eachUnquoted(s string, fn func(i int) bool) {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && !fn(i):
			return
		}
	}
}

// stripComment drops a '#' comment that is outside string literals.
func stripComment(line string) string {
	end := len(line)
	eachUnquoted(line, func(i int) bool {
		if line[i] == '#' {
			end = i
			return false
		}
		return true
	})
	return line[:end]
}

// depth counts open brackets outside string literals.
func depth(s string) int {
	d := 0
	eachUnquoted(s, func(i int) bool {
		switch {
		case strings.IndexByte("([{", s[i]) >= 0:
			d++
		case strings.IndexByte(")]}", s[i]) >= 0:
			d--
		}
		return true
	})
	return d
}

var (
	importRE = regexp.MustCompile(`^(import\s+[\w.]+(\s*,\s*[\w.]+)*|from\s+[\w.]+\s+import\s+[\w.]+(\s*,\s*[\w.]+)*)$`)
	assignRE = regexp.MustCompile(`^config\.(\w+)\s*=\s*(.+)$`)
	methodRE = regexp.MustCompile(`^config\.(\w+)\.(\w+)\((.*)\)$`)
	envRE    = regexp.MustCompile(`^config\.environment\[(.+?)\]\s*=\s*(.+)$`)
)

func (c *Config) exec(stmt string) error {
	if importRE.MatchString(stmt) {
		return nil
	}
	if m := envRE.FindStringSubmatch(stmt); m != nil {
		k, err := parseStringLit(m[1])
		if err != nil {
			return err
		}
		v, err := parseStringLit(m[2])
		if err != nil {
			return err
		}
		c.Environment[k] = v
		return nil
	}
	if m := methodRE.FindStringSubmatch(stmt); m != nil {
		return c.method(m[1], m[2], m[3])
	}
	m := assignRE.FindStringSubmatch(stmt)
	if m == nil {
		return fmt.Errorf("cannot understand %q", stmt)
	}
	field, rhs := m[1], strings.TrimSpace(m[2])
	var err error
	switch field {
	case "name":
		c.Name, err = parseStringLit(rhs)
	case "suffixes":
		c.Suffixes, err = parseStringList(rhs)
	case "excludes":
		c.Excludes, err = parseStringList(rhs)
	case "rlx_tools":
		c.Tools, err = parseStringList(rhs)
	case "pipefail":
		c.PipeFail, err = parseBoolLit(rhs)
	case "recursiveExpansionLimit":
		c.Recursion, err = strconv.Atoi(rhs)
		if err == nil && c.Recursion < 0 {
			err = fmt.Errorf("recursiveExpansionLimit must not be negative")
		}
	case "test_format":
		switch strings.Join(strings.Fields(rhs), "") {
		case "lit.formats.ShTest()", "lit.formats.ShTest(False)", "lit.formats.ShTest(execute_external=False)":
		default:
			err = fmt.Errorf("only the internal shell (lit.formats.ShTest() or ShTest(False)) is supported, got %q", rhs)
		}
	case "test_source_root":
		switch strings.Join(strings.Fields(rhs), "") {
		case "os.path.dirname(__file__)", "os.path.dirname(os.path.abspath(__file__))", "os.path.dirname(os.path.realpath(__file__))":
		default:
			err = fmt.Errorf("test_source_root must be os.path.dirname(__file__)")
		}
	default:
		err = fmt.Errorf("unsupported field config.%s", field)
	}
	return err
}

func (c *Config) method(field, method, args string) error {
	switch field + "." + method {
	case "available_features.add":
		f, err := parseStringLit(args)
		c.Features[f] = true
		return err
	case "available_features.update":
		fs, err := parseStringList(args)
		for _, f := range fs {
			c.Features[f] = true
		}
		return err
	case "suffixes.append", "suffixes.add", "excludes.append", "excludes.add":
		s, err := parseStringLit(args)
		if field == "suffixes" {
			c.Suffixes = append(c.Suffixes, s)
		} else {
			c.Excludes = append(c.Excludes, s)
		}
		return err
	case "suffixes.extend", "suffixes.update", "excludes.extend", "excludes.update":
		s, err := parseStringList(args)
		if field == "suffixes" {
			c.Suffixes = append(c.Suffixes, s...)
		} else {
			c.Excludes = append(c.Excludes, s...)
		}
		return err
	case "substitutions.append":
		vals, err := parseTuple(args)
		if err != nil {
			return err
		}
		if len(vals) != 2 {
			return fmt.Errorf("a substitution is a (pattern, value) pair")
		}
		s, err := RegexpSubst(vals[0], vals[1])
		if err != nil {
			return fmt.Errorf("substitution %q: %v", vals[0], err)
		}
		c.Substs = append(c.Substs, s)
		return nil
	}
	return fmt.Errorf("unsupported call config.%s.%s", field, method)
}

func parseBoolLit(s string) (bool, error) {
	switch s {
	case "True":
		return true, nil
	case "False":
		return false, nil
	}
	return false, fmt.Errorf("expected True or False, got %q", s)
}

// parseStringLit parses one Python string literal: '...' or "...",
// optionally r-prefixed, with the common backslash escapes.
func parseStringLit(s string) (string, error) {
	v, rest, err := lexStringLit(strings.TrimSpace(s))
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(rest) != "" {
		return "", fmt.Errorf("expected one string literal, got %q", s)
	}
	return v, nil
}

func lexStringLit(s string) (string, string, error) {
	raw := false
	if strings.HasPrefix(s, "r") || strings.HasPrefix(s, "R") {
		raw = true
		s = s[1:]
	}
	if s == "" || s[0] != '"' && s[0] != '\'' {
		return "", "", fmt.Errorf("expected a string literal, got %q", s)
	}
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == q {
			return b.String(), s[i+1:], nil
		}
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		e := s[i]
		if raw {
			b.WriteByte('\\')
			b.WriteByte(e)
			continue
		}
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\', '\'', '"':
			b.WriteByte(e)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return "", "", fmt.Errorf("unterminated string literal %q", s)
}

// parseStringList parses [s, ...], (s, ...) or {s, ...} of string literals.
func parseStringList(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || strings.IndexByte("[({", s[0]) < 0 || s[len(s)-1] != map[byte]byte{'[': ']', '(': ')', '{': '}'}[s[0]] {
		return nil, fmt.Errorf("expected a list of string literals, got %q", s)
	}
	return parseTuple(s[1 : len(s)-1])
}

// parseTuple parses comma-separated string literals (a trailing comma is
// allowed); surrounding parentheses are optional.
func parseTuple(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s = s[1 : len(s)-1]
	}
	var out []string
	for {
		s = strings.TrimSpace(s)
		if s == "" {
			return out, nil
		}
		v, rest, err := lexStringLit(s)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		rest = strings.TrimSpace(rest)
		if rest != "" && rest[0] != ',' {
			return nil, fmt.Errorf("expected ',' before %q", rest)
		}
		s = strings.TrimPrefix(rest, ",")
	}
}

// FindSuite walks up from path to the nearest directory holding a
// lit.cfg.py and returns that directory.
func FindSuite(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir := abs
	if fi, err := os.Stat(abs); err != nil {
		return "", err
	} else if !fi.IsDir() {
		dir = filepath.Dir(abs)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ConfigName)); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%s: no %s found in it or any parent directory", path, ConfigName)
		}
		dir = parent
	}
}

// LoadConfig reads the lit.cfg.py of the suite rooted at dir.
func LoadConfig(dir string) (*Config, error) {
	path := filepath.Join(dir, ConfigName)
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseConfig(path, src)
}
