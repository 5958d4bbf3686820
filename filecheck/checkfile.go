package filecheck

import (
	"regexp"
	"sort"
	"strings"
)

// dagNot is a CHECK-DAG or CHECK-NOT pattern waiting for the next positive
// directive, with the prefix it was written with.
type dagNot struct {
	pat      *pattern
	prefix   string
	implicit bool // from --implicit-check-not
	afterDAG bool // a CHECK-DAG precedes it in the same run of DAG/NOT directives
}

// checkString is a positive directive together with the DAG and NOT
// directives before it.
type checkString struct {
	pat     *pattern
	prefix  string
	loc     loc
	dagNots []dagNot
}

// checker is one FileCheck run: options, parsed check file and variables.
type checker struct {
	opts      Options
	pr        *printer
	ctx       *patternContext
	checks    []*checkString
	checkFile *sourceFile
	implicit  []*sourceFile // "command line" buffers of implicit patterns
	prefixes  []string
	comments  []string
	defPrefix bool // no --check-prefix given
	input     *sourceFile
	diags     *[]diag
}

func newChecker(opts Options, pr *printer) *checker {
	c := &checker{opts: opts, pr: pr, ctx: newPatternContext()}
	if c.opts.VeryVerbose {
		c.opts.Verbose = true
	}
	c.prefixes = opts.CheckPrefixes
	if len(c.prefixes) == 0 {
		c.prefixes = defaultCheckPrefixes
		c.defPrefix = true
	}
	c.comments = opts.CommentPrefixes
	if len(c.comments) == 0 {
		c.comments = defaultCommentPrefixes
	}
	return c
}

var validPrefix = regexp.MustCompile(`^[a-zA-Z0-9_-]*$`)

// validatePrefixes checks the user's prefixes the way
// FileCheck::ValidateCheckPrefixes does; it prints the problem and returns
// false if there is one.
func (c *checker) validatePrefixes() bool {
	unique := map[string]bool{}
	if len(c.opts.CheckPrefixes) == 0 {
		for _, p := range defaultCheckPrefixes {
			unique[p] = true
		}
	}
	if len(c.opts.CommentPrefixes) == 0 {
		for _, p := range defaultCommentPrefixes {
			unique[p] = true
		}
	}
	check := func(kind string, prefixes []string) bool {
		for _, p := range prefixes {
			if p == "" {
				c.pr.write("error: supplied " + kind + " prefix must not be the empty string\n")
				return false
			}
			if !validPrefix.MatchString(p) {
				c.pr.write("error: supplied " + kind + " prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '" + p + "'\n")
				return false
			}
			if unique[p] {
				c.pr.write("error: supplied " + kind + " prefix must be unique among check and comment prefixes: '" + p + "'\n")
				return false
			}
			unique[p] = true
		}
		return true
	}
	return check("check", c.opts.CheckPrefixes) && check("comment", c.opts.CommentPrefixes)
}

// defineCmdlineVariables defines the -D and -D# variables. Errors are
// printed; it returns false if there were any.
func (c *checker) defineCmdlineVariables() bool {
	if len(c.opts.Defines) == 0 {
		return true
	}
	var text strings.Builder
	type piece struct{ off, n int }
	var pieces []piece
	for i, d := range c.opts.Defines {
		prefix := "Global define #" + itoa(i+1) + ": "
		eq := strings.IndexByte(d, '=')
		if eq < 0 {
			pieces = append(pieces, piece{text.Len(), 0})
			continue
		}
		if d[0] == '#' {
			text.WriteString(prefix + d + " (parsed as: [[")
			subst := d[:eq] + ":" + d[eq+1:]
			pieces = append(pieces, piece{text.Len(), len(subst)})
			text.WriteString(subst + "]])\n")
		} else {
			text.WriteString(prefix)
			pieces = append(pieces, piece{text.Len(), len(d)})
			text.WriteString(d + "\n")
		}
	}
	f := newSourceFile("Global defines", text.String())
	ok := true
	fail := func(err *locError) {
		c.pr.print(err.at, kindError, err.msg)
		c.pr.write("\n")
		ok = false
	}
	for _, pc := range pieces {
		def := cursor{f: f, off: pc.off, s: f.text[pc.off : pc.off+pc.n]}
		if def.empty() {
			fail(errorAt(def, "missing equal sign in global definition"))
			continue
		}
		if def.s[0] == '#' {
			e, v, err := c.ctx.parseNumericSubstitutionBlock(def.drop(1), false, 0)
			if err != nil {
				fail(err)
				continue
			}
			if e.ast == nil || v == nil {
				// LLVM's FileCheck crashes here; say what is missing.
				fail(errorAt(def.drop(len(def.s)), "expected a numeric expression after '='"))
				continue
			}
			val, errs := e.ast.eval()
			if errs != nil {
				// These errors carry no location in LLVM's output.
				for _, ee := range errs {
					if ee.overflow {
						c.pr.write("overflow error\n")
					} else {
						c.pr.write("undefined variable: " + ee.name.s + "\n")
					}
				}
				ok = false
				continue
			}
			v.value = val
			c.ctx.numVars[v.name] = v
			continue
		}
		eq := strings.IndexByte(def.s, '=')
		nameCur := def.take(eq)
		rest := nameCur
		name, pseudo, err := parseVariable(&rest)
		if err != nil {
			fail(err)
			continue
		}
		if pseudo || !rest.empty() {
			fail(errorAt(nameCur, "invalid name in string variable definition '"+nameCur.s+"'"))
			continue
		}
		if _, exists := c.ctx.numVars[name.s]; exists {
			fail(errorAt(name, "numeric variable with name '"+name.s+"' already exists"))
			continue
		}
		if _, exists := c.ctx.strVars[name.s]; !exists {
			c.ctx.strVars[name.s] = strValue{s: def.s[eq+1:], at: -1}
		}
		c.ctx.strDefined[name.s] = true
	}
	return ok
}

// readCheckFile parses the check file. Errors are printed; it returns
// false if there were any.
func (c *checker) readCheckFile(f *sourceFile) bool {
	c.checkFile = f
	if !c.defineCmdlineVariables() {
		return false
	}
	c.ctx.lineVar = &numVar{name: "@LINE", format: exprFormat{kind: fmtUnsigned}, matchAt: -1}
	c.ctx.numVars["@LINE"] = c.ctx.lineVar

	var implicitNots []dagNot
	for _, pat := range c.opts.ImplicitCheckNot {
		const head = "-implicit-check-not='"
		buf := newSourceFile("command line", head+pat+"'")
		c.implicit = append(c.implicit, buf)
		p := newPattern(c.ctx, checkType{kind: kindNot, count: 1}, 0)
		// LLVM reports errors in implicit patterns but carries on.
		p.parse(cursor{f: buf, off: len(head), s: pat}, "IMPLICIT-CHECK", &c.opts, c.pr)
		implicitNots = append(implicitNots, dagNot{pat: p, prefix: "IMPLICIT-CHECK", implicit: true})
	}
	dagNots := append([]dagNot(nil), implicitNots...)
	sawDAG := false

	text := f.text
	buf := 0
	line := 1
	matcher := newPrefixMatcher(c.prefixes, c.comments, text)
	isComment := map[string]bool{}
	for _, p := range c.comments {
		isComment[p] = true
	}
	notFound := map[string]bool{}
	for _, p := range c.prefixes {
		notFound[p] = true
	}
	distinct := len(notFound)

	for {
		prefixAt, prefix, typ, after := c.findFirstMatchingPrefix(matcher, text, &buf, &line, isComment)
		if prefixAt < 0 {
			break
		}
		if typ.kind != kindComment {
			delete(notFound, prefix)
		}
		if after < 0 || after == len(text) {
			buf = prefixAt + len(prefix)
		} else {
			buf = after
		}
		switch typ.kind {
		case kindMisspelled:
			c.pr.print(loc{f, prefixAt}, kindError, "misspelled directive '"+text[prefixAt:after]+"'")
			return false
		case kindBadNot:
			c.pr.print(loc{f, buf}, kindError, "unsupported -NOT combo on prefix '"+prefix+"'")
			return false
		case kindBadCount:
			c.pr.print(loc{f, buf}, kindError, "invalid count in -COUNT specification on prefix '"+prefix+"'")
			return false
		}

		if !(c.opts.StrictWhitespace && c.opts.MatchFullLines) {
			i := buf
			for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
				i++
			}
			if i == len(text) {
				// StringRef::substr(npos) leaves an empty pattern at the
				// end of the buffer.
				i = len(text)
			}
			buf = i
		}
		eol := strings.IndexAny(text[buf:], "\n\r")
		if eol < 0 {
			eol = len(text)
		} else {
			eol += buf
		}
		patText := cursor{f: f, off: buf, s: text[buf:eol]}
		patLoc := loc{f, buf}
		buf = eol

		if typ.kind == kindComment {
			continue
		}
		p := newPattern(c.ctx, typ, line)
		if !p.parse(patText, prefix, &c.opts, c.pr) {
			return false
		}
		if typ.kind == kindLabel && p.hasVariable() {
			c.pr.print(loc{f, prefixAt}, kindError, "found '"+prefix+"-LABEL:' with variable definition or use")
			return false
		}
		if (typ.kind == kindNext || typ.kind == kindSame || typ.kind == kindEmpty) && len(c.checks) == 0 {
			name := map[checkKind]string{kindNext: "NEXT", kindSame: "SAME", kindEmpty: "EMPTY"}[typ.kind]
			c.pr.print(loc{f, prefixAt}, kindError, "found '"+prefix+"-"+name+"' without previous '"+prefix+": line")
			return false
		}
		if typ.kind == kindDAG || typ.kind == kindNot {
			dagNots = append(dagNots, dagNot{pat: p, prefix: prefix, afterDAG: sawDAG})
			sawDAG = sawDAG || typ.kind == kindDAG
			continue
		}
		c.checks = append(c.checks, &checkString{pat: p, prefix: prefix, loc: patLoc, dagNots: dagNots})
		dagNots = append([]dagNot(nil), implicitNots...)
		sawDAG = false
	}

	noneFound := len(notFound) == distinct
	unused := !c.opts.AllowUnusedPrefixes && len(notFound) > 0
	if (noneFound || unused) && (len(implicitNots) == 0 || !c.defPrefix) {
		missing := make([]string, 0, len(notFound))
		for p := range notFound {
			missing = append(missing, p)
		}
		sort.Strings(missing)
		msg := "error: no check strings found with prefix "
		if len(missing) > 1 {
			msg = "error: no check strings found with prefixes "
		}
		for i, p := range missing {
			if i > 0 {
				msg += ", "
			}
			msg += "'" + p + ":'"
		}
		c.pr.write(msg + "\n")
		return false
	}

	if len(dagNots) > 0 {
		eof := newPattern(c.ctx, checkType{kind: kindEOF, count: 1}, line+1)
		eof.start = loc{f, buf}
		c.checks = append(c.checks, &checkString{pat: eof, loc: loc{f, buf}, dagNots: dagNots})
	}
	return true
}

// findFirstMatchingPrefix finds the next directive at or after *buf. It
// skips prefixes that are the tail of a longer word or are not followed by
// a directive suffix, advancing *buf and *line past what it skips. It
// returns the prefix's offset (-1 if none), the prefix, the directive type
// and the offset after the directive's colon.
func (c *checker) findFirstMatchingPrefix(m *prefixMatcher, text string, buf, line *int, isComment map[string]bool) (int, string, checkType, int) {
	for *buf < len(text) {
		at, prefix := m.match(*buf)
		if at < 0 {
			return -1, "", checkType{}, 0
		}
		*line += strings.Count(text[*buf:at], "\n")
		skippedEmpty := at == *buf
		lastSkipped := byte(0)
		if at > *buf {
			lastSkipped = text[at-1]
		}
		*buf = at
		if skippedEmpty || !isPartOfWord(lastSkipped) {
			typ, after, misspelled := findCheckType(text[at:], prefix, isComment[prefix])
			if typ.kind != kindNone {
				if misspelled {
					typ = checkType{kind: kindMisspelled}
				}
				if after >= 0 {
					after += at
				}
				return at, prefix, typ, after
			}
		}
		i := at + len(prefix)
		for i < len(text) && isPartOfWord(text[i]) {
			i++
		}
		*buf = i
	}
	return -1, "", checkType{}, 0
}
