package filecheck

import "strings"

// checkInput matches all check strings against the input, block by block
// between CHECK-LABEL matches. It returns true if everything matched.
func (c *checker) checkInput(in string) bool {
	failed := false
	i, j, e := 0, 0, len(c.checks)
	buf := 0
	for {
		var regionStart, regionEnd int
		if j == e {
			regionStart, regionEnd = buf, len(in)
		} else {
			cs := c.checks[j]
			if cs.pat.typ.kind != kindLabel {
				j++
				continue
			}
			pos, n, ok := c.check(cs, in, buf, len(in), true)
			if !ok {
				return false
			}
			regionStart, regionEnd = buf, pos+n
			buf = pos + n
			j++
		}
		if i != 0 && c.opts.EnableVarScope {
			c.ctx.clearLocalVars()
		}
		for ; i != j; i++ {
			pos, n, ok := c.check(c.checks[i], in, regionStart, regionEnd, false)
			if !ok {
				failed = true
				i = j
				break
			}
			regionStart = pos + n
		}
		if j == e {
			break
		}
	}
	return !failed
}

// check matches one check string in in[start:end] and returns the offset
// and length of its match. In label-scan mode only the pattern itself is
// matched; its DAG, NOT, NEXT and SAME constraints wait for the second
// pass over the block.
func (c *checker) check(cs *checkString, in string, start, end int, labelScan bool) (int, int, bool) {
	lastPos := start
	var nots []dagNot
	if !labelScan {
		p, ok := c.checkDAG(cs, in, start, end, &nots)
		if !ok {
			return 0, 0, false
		}
		lastPos = p
	}

	pat := cs.pat
	lastMatchEnd := lastPos
	firstMatchPos := start
	for i := 1; i <= pat.typ.count; i++ {
		from := lastMatchEnd
		res := pat.match(in, from, end)
		if c.reportMatchResult(true, cs.prefix, cs.loc, pat, i, lastMatchEnd, end, res) {
			return 0, 0, false
		}
		if i == 1 {
			firstMatchPos = res.pos
		}
		lastMatchEnd = res.pos + res.len
		if res.len == 0 && res.pos == from && !c.opts.Verbose && i < pat.typ.count {
			// An empty match at the start of the search repeats, on the
			// very same text, for every remaining count; without -v nothing
			// distinguishes the iterations, so skip them rather than loop
			// up to 2^31 times.
			break
		}
	}
	matchLen := lastMatchEnd - firstMatchPos

	if !labelScan {
		if c.checkNext(cs, in, lastPos, firstMatchPos) || c.checkSame(cs, in, lastPos, firstMatchPos) {
			c.processMatchResult(matchWrongLine, pat.typ, cs.loc, firstMatchPos, firstMatchPos+matchLen, c.opts.Verbose)
			return 0, 0, false
		}
		if c.checkNot(in, lastPos, firstMatchPos, nots) {
			return 0, 0, false
		}
	}
	return firstMatchPos, matchLen, true
}

// countNewlines counts line breaks in s, taking "\r\n" and "\n\r" as one,
// and returns the offset just after the first one.
func countNewlines(s string) (int, int) {
	n, first := 0, -1
	i := 0
	for {
		j := strings.IndexAny(s[i:], "\n\r")
		if j < 0 {
			return n, first
		}
		i += j
		n++
		if i+1 < len(s) && (s[i+1] == '\n' || s[i+1] == '\r') && s[i] != s[i+1] {
			i++
		}
		i++
		if n == 1 {
			first = i
		}
	}
}

// checkNext verifies a CHECK-NEXT or CHECK-EMPTY match: exactly one line
// break between the previous match, ending at prev, and this one at pos.
func (c *checker) checkNext(cs *checkString, in string, prev, pos int) bool {
	k := cs.pat.typ.kind
	if k != kindNext && k != kindEmpty {
		return false
	}
	name := cs.prefix + "-NEXT"
	if k == kindEmpty {
		name = cs.prefix + "-EMPTY"
	}
	n, first := countNewlines(in[prev:pos])
	switch {
	case n == 0:
		c.pr.print(cs.loc, kindError, name+": is on the same line as previous match")
	case n != 1:
		c.pr.print(cs.loc, kindError, name+": is not on the line after the previous match")
	default:
		return false
	}
	c.pr.print(loc{c.input, pos}, kindNote, "'next' match was here")
	c.pr.print(loc{c.input, prev}, kindNote, "previous match ended here")
	if n > 1 {
		c.pr.print(loc{c.input, prev + first}, kindNote, "non-matching line after previous match is here")
	}
	return true
}

// checkSame verifies that a CHECK-SAME match is on the line of the
// previous match.
func (c *checker) checkSame(cs *checkString, in string, prev, pos int) bool {
	if cs.pat.typ.kind != kindSame {
		return false
	}
	if n, _ := countNewlines(in[prev:pos]); n == 0 {
		return false
	}
	c.pr.print(cs.loc, kindError, cs.prefix+"-SAME: is not on the same line as the previous match")
	c.pr.print(loc{c.input, pos}, kindNote, "'next' match was here")
	c.pr.print(loc{c.input, prev}, kindNote, "previous match ended here")
	return true
}

// checkNot verifies that none of the NOT patterns occurs in in[start:end].
// It reports every one that does and returns true if any did.
func (c *checker) checkNot(in string, start, end int, nots []dagNot) bool {
	failed := false
	for _, n := range nots {
		c.warnEmptyNot(n, in, start, end)
		res := n.pat.match(in, start, end)
		if c.reportMatchResult(false, n.prefix, n.pat.start, n.pat, 1, start, end, res) {
			failed = true
		}
	}
	return failed
}

// warnEmptyNot warns about an explicit CHECK-NOT that cannot match
// anything: its search range is empty, or holds only whitespace because
// the preceding CHECK-DAG group already reached past the text it was meant
// to guard (llvm/llvm-project#89777).
func (c *checker) warnEmptyNot(n dagNot, in string, start, end int) {
	if c.opts.NoEmptyNotWarning || n.implicit {
		return
	}
	blank := strings.Trim(in[start:end], " \t\r\n") == ""
	switch {
	case n.afterDAG && blank:
	case start == end && end < len(in):
		// An empty range at the end of the input is the usual "nothing
		// follows" idiom and is fine.
	default:
		return
	}
	c.pr.print(n.pat.start, kindWarning, n.pat.typ.description(n.prefix)+": search range is empty, so this directive checks nothing")
	if n.afterDAG {
		c.pr.print(loc{c.input, start}, kindNote, "the search range starts here, where the matches of the preceding CHECK-DAG group end")
	} else {
		c.pr.print(loc{c.input, start}, kindNote, "search range is here")
	}
}

// indexDAGGroup builds a dagIndex for the fixed-string directives of the
// DAG group starting at group[0] (cs.dagNots[first]), recording their ids
// in ids, or returns nil if the group is too small to benefit.
func (c *checker) indexDAGGroup(group []dagNot, first int, ids map[int]int, in string, start, end int) *dagIndex {
	clear(ids)
	var pats []string
	icase := false
	for i, dn := range group {
		if dn.pat.typ.kind != kindDAG {
			break
		}
		if dn.pat.fixed == "" {
			continue
		}
		ids[first+i] = len(pats)
		pats = append(pats, dn.pat.fixed)
		icase = dn.pat.ignoreCase
	}
	if len(pats) < minIndexedDAGs {
		clear(ids)
		return nil
	}
	return newDAGIndex(in, start, end, pats, icase)
}

// matchRange is a CHECK-DAG match [pos, end).
type matchRange struct{ pos, end int }

// checkDAG matches the DAG and NOT directives before cs in in[start:end].
// NOT patterns after the last DAG group are returned in *nots for the
// caller to check. It returns where the next positive match must start
// searching.
func (c *checker) checkDAG(cs *checkString, in string, start, end int, nots *[]dagNot) (int, bool) {
	if len(cs.dagNots) == 0 {
		return start, true
	}
	startPos := start
	var ranges []matchRange
	var index *dagIndex
	indexID := map[int]int{} // position in cs.dagNots -> index id
	for idx, dn := range cs.dagNots {
		pat := dn.pat
		if pat.typ.kind == kindNot {
			*nots = append(*nots, dn)
			continue
		}
		if idx == 0 || cs.dagNots[idx-1].pat.typ.kind == kindNot {
			index = c.indexDAGGroup(cs.dagNots[idx:], idx, indexID, in, startPos, end)
		}
		matchPos, matchLen := startPos, 0
		mi := 0
		for {
			var res matchResult
			if id, ok := indexID[idx]; ok && index != nil && matchPos == startPos {
				if pos, _ := index.firstAt(id, matchPos); pos >= 0 {
					res = matchResult{found: true, pos: pos, len: len(pat.fixed)}
				}
			} else {
				res = pat.match(in, matchPos, end)
			}
			if len(res.errs) > 0 || !res.found || c.opts.VeryVerbose {
				if c.reportMatchResult(true, dn.prefix, pat.start, pat, 1, matchPos, end, res) {
					return 0, false
				}
			}
			matchLen = res.len
			matchPos = res.pos
			m := matchRange{matchPos, matchPos + matchLen}
			if c.opts.AllowDeprecatedDAGOverlap {
				if len(ranges) == 0 {
					ranges = append(ranges, m)
				} else {
					ranges[0].pos = min(ranges[0].pos, m.pos)
					ranges[0].end = max(ranges[0].end, m.end)
				}
				break
			}
			overlap := false
			for ; mi < len(ranges); mi++ {
				if m.pos < ranges[mi].end {
					overlap = ranges[mi].pos < m.end
					break
				}
			}
			if !overlap {
				ranges = append(ranges, matchRange{})
				copy(ranges[mi+1:], ranges[mi:])
				ranges[mi] = m
				break
			}
			if c.opts.VeryVerbose {
				if c.diags == nil {
					old := ranges[mi]
					c.pr.print(loc{c.input, old.pos}, kindNote, "match discarded, overlaps earlier DAG match here", span{old.pos, old.end})
				} else {
					c.retagLastDiags(matchDiscarded)
				}
			}
			matchPos = ranges[mi].end
			mi++
		}
		if !c.opts.VeryVerbose {
			c.printMatch(true, dn.prefix, pat.start, pat, 1, matchResult{found: true, pos: matchPos, len: matchLen})
		}

		if idx+1 == len(cs.dagNots) || cs.dagNots[idx+1].pat.typ.kind == kindNot {
			if len(*nots) > 0 {
				if c.checkNot(in, startPos, ranges[0].pos, *nots) {
					return 0, false
				}
				*nots = (*nots)[:0]
			}
			startPos = ranges[len(ranges)-1].end
			ranges = ranges[:0]
		}
	}
	return startPos, true
}
