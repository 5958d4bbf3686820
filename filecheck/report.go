package filecheck

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rlx-compiler/rlx/internal/llvmescape"
)

// matchType classifies a diagnostic recorded for the input dump, as
// FileCheckDiag::MatchType does.
type matchType int

const (
	matchFoundAndExpected matchType = iota
	matchFoundButExcluded
	matchWrongLine
	matchDiscarded
	matchFoundErrorNote
	matchNoneAndExcluded
	matchNoneButExpected
	matchNoneForInvalidPattern
	matchFuzzy
)

// diag is one result or note recorded for the input dump.
type diag struct {
	typ        checkType
	checkLoc   loc
	mt         matchType
	start, end int // input range
	note       string
}

func (c *checker) addDiag(d diag) {
	if c.diags != nil {
		*c.diags = append(*c.diags, d)
	}
}

// processMatchResult records a match or search range for the dump. With
// adjustPrev it instead retags the diagnostics just recorded for the same
// directive.
func (c *checker) processMatchResult(mt matchType, typ checkType, checkLoc loc, start, end int, adjustPrev bool) {
	if c.diags == nil {
		return
	}
	if adjustPrev {
		c.retagLastDiags(mt)
		return
	}
	c.addDiag(diag{typ: typ, checkLoc: checkLoc, mt: mt, start: start, end: end})
}

func (c *checker) retagLastDiags(mt matchType) {
	d := *c.diags
	if len(d) == 0 {
		return
	}
	at := d[len(d)-1].checkLoc
	for i := len(d) - 1; i >= 0 && d[i].checkLoc == at; i-- {
		d[i].mt = mt
	}
}

// reportMatchResult reports a match or non-match of pat, which was
// searched for in in[bufStart:bufEnd]. It returns true if that is an error.
func (c *checker) reportMatchResult(expected bool, prefix string, at loc, pat *pattern, count, bufStart, bufEnd int, res matchResult) bool {
	if res.found {
		return c.printMatch(expected, prefix, at, pat, count, res)
	}
	return c.printNoMatch(expected, prefix, at, pat, count, bufStart, bufEnd, res.errs)
}

func (c *checker) printMatch(expected bool, prefix string, at loc, pat *pattern, count int, res matchResult) bool {
	hasError := !expected
	printDiag := true
	if !hasError {
		if !c.opts.Verbose {
			return false
		}
		if !c.opts.VeryVerbose && pat.typ.kind == kindEOF {
			return false
		}
		printDiag = c.diags == nil
	}
	mt := matchFoundAndExpected
	if !expected {
		mt = matchFoundButExcluded
	}
	start, end := res.pos, res.pos+res.len
	c.processMatchResult(mt, pat.typ, at, start, end, false)
	if c.diags != nil {
		c.printSubstitutions(pat, at, start, mt, true)
		c.printVariableDefs(pat, at, mt, true)
	}
	if !printDiag {
		return hasError
	}
	word, kind := "expected", kindRemark
	if !expected {
		word, kind = "excluded", kindError
	}
	msg := pat.typ.description(prefix) + ": " + word + " string found in input"
	if pat.typ.count > 1 {
		msg += fmt.Sprintf(" (%d out of %d)", count, pat.typ.count)
	}
	c.pr.print(at, kind, msg)
	c.pr.print(loc{c.input, start}, kindNote, "found here", span{start, end})
	c.printSubstitutions(pat, at, start, mt, false)
	c.printVariableDefs(pat, at, mt, false)
	return hasError
}

func (c *checker) printNoMatch(expected bool, prefix string, at loc, pat *pattern, count, bufStart, bufEnd int, errs []*locError) bool {
	hasError, patternError := expected, false
	mt := matchNoneAndExcluded
	if expected {
		mt = matchNoneButExpected
	}
	var msgs []string
	for _, e := range errs {
		hasError, patternError = true, true
		mt = matchNoneForInvalidPattern
		c.pr.print(e.at, kindError, e.msg)
		msgs = append(msgs, e.msg)
	}
	printDiag := true
	if !hasError {
		if !c.opts.VeryVerbose {
			return false
		}
		printDiag = c.diags == nil
	}
	c.processMatchResult(mt, pat.typ, at, bufStart, bufEnd, false)
	if c.diags != nil {
		for _, m := range msgs {
			c.addDiag(diag{typ: pat.typ, checkLoc: at, mt: mt, start: bufStart, end: bufStart, note: m})
		}
		c.printSubstitutions(pat, at, bufStart, mt, true)
	}
	if !printDiag {
		return hasError
	}
	if !patternError {
		word, kind := "expected", kindError
		if !expected {
			word, kind = "excluded", kindRemark
		}
		msg := pat.typ.description(prefix) + ": " + word + " string not found in input"
		if pat.typ.count > 1 {
			msg += fmt.Sprintf(" (%d out of %d)", count, pat.typ.count)
		}
		c.pr.print(at, kind, msg)
		c.pr.print(loc{c.input, bufStart}, kindNote, "scanning from here")
	}
	c.printSubstitutions(pat, at, bufStart, mt, false)
	if expected {
		c.printFuzzyMatch(pat, at, bufStart, bufEnd)
	}
	return hasError
}

// printSubstitutions notes the value of each substitution at input offset
// at, either into the dump diagnostics or to the error stream.
func (c *checker) printSubstitutions(pat *pattern, checkLoc loc, at int, mt matchType, toDiags bool) {
	for _, s := range pat.substs {
		v, errs := s.result(pat.ctx)
		if errs != nil {
			continue
		}
		msg := `with "` + llvmescape.String(s.from.s) + `" equal to "` + llvmescape.String(v) + `"`
		if toDiags {
			c.addDiag(diag{typ: pat.typ, checkLoc: checkLoc, mt: mt, start: at, end: at, note: msg})
		} else {
			c.pr.print(loc{c.input, at}, kindNote, msg)
		}
	}
}

// printVariableDefs notes where each variable the pattern defines was
// captured.
func (c *checker) printVariableDefs(pat *pattern, checkLoc loc, mt matchType, toDiags bool) {
	type capture struct {
		name       string
		start, end int
	}
	var caps []capture
	for _, name := range pat.varDefList {
		v := pat.ctx.strVars[name]
		caps = append(caps, capture{name, v.at, v.at + len(v.s)})
	}
	for _, name := range pat.numDefList {
		v := pat.numDefs[name].v
		if v.matchAt < 0 {
			continue
		}
		caps = append(caps, capture{name, v.matchAt, v.matchAt + len(v.matched)})
	}
	sort.SliceStable(caps, func(i, j int) bool { return caps[i].start < caps[j].start })
	for _, cp := range caps {
		msg := `captured var "` + cp.name + `"`
		if toDiags {
			c.addDiag(diag{typ: pat.typ, checkLoc: checkLoc, mt: mt, start: cp.start, end: cp.end, note: msg})
		} else {
			c.pr.print(loc{c.input, cp.start}, kindNote, msg, span{cp.start, cp.end})
		}
	}
}

// printFuzzyMatch points at the input that most resembles the pattern,
// within the first 4096 bytes of the search range.
func (c *checker) printFuzzyMatch(pat *pattern, checkLoc loc, bufStart, bufEnd int) {
	example := pat.fixed
	if example == "" {
		example = pat.regex
	}
	buf := c.input.text[bufStart:bufEnd]
	lines := 0
	best := -1
	bestQuality := 0.0
	var ed editDistance
	for i := 0; i < len(buf) && i < 4096; i++ {
		if buf[i] == '\n' {
			lines++
		}
		if buf[i] == ' ' || buf[i] == '\t' {
			continue
		}
		prefix := buf[i:min(len(buf), i+len(example))]
		if j := strings.IndexByte(prefix, '\n'); j >= 0 {
			prefix = prefix[:j]
		}
		limit := -1
		if best >= 0 {
			// Only distances that could beat the best quality matter.
			limit = int(bestQuality - float64(lines)/100)
		}
		d, ok := ed.distance(prefix, example, limit)
		if !ok {
			continue
		}
		q := float64(d) + float64(lines)/100
		if q < bestQuality || best < 0 {
			best, bestQuality = i, q
		}
	}
	if best > 0 && bestQuality < 50 {
		pos := bufStart + best
		c.addDiag(diag{typ: pat.typ, checkLoc: checkLoc, mt: matchFuzzy, start: pos, end: pos})
		c.pr.print(loc{c.input, pos}, kindNote, "possible intended match here")
	}
}

// editDistance computes Levenshtein distances, reusing its buffer.
type editDistance struct{ row []int }

// distance returns the edit distance between a and b. With limit >= 0 it
// gives up (ok false) as soon as the distance is known to exceed limit.
func (e *editDistance) distance(a, b string, limit int) (int, bool) {
	n := len(b)
	if cap(e.row) < n+1 {
		e.row = make([]int, n+1)
	}
	row := e.row[:n+1]
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		best := row[0]
		for j := 1; j <= n; j++ {
			old := row[j]
			if a[i-1] == b[j-1] {
				row[j] = prev
			} else {
				row[j] = 1 + min(prev, row[j], row[j-1])
			}
			prev = old
			best = min(best, row[j])
		}
		if limit >= 0 && best > limit {
			return 0, false
		}
	}
	if limit >= 0 && row[n] > limit {
		return 0, false
	}
	return row[n], true
}
