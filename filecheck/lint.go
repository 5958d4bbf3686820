package filecheck

import "strings"

// The lint catches directives that LLVM's FileCheck silently ignores
// (llvm/llvm-project#54679): a misspelled suffix ("CHECK-NXET:"), a
// missing colon ("CHECK-NEXT foo") and a misspelled prefix ("CHEKC:").
//
// Only the first word of a line is considered, and only when nothing but
// punctuation and blanks precede it, which is where directives are written
// ("; CHECK:", "// CHECK:", "# CHECK:"). Check files often contain
// directives for prefixes that the current run does not use, so a word is
// left alone when it also appears elsewhere in the file outside directive
// position (typically in a RUN line's --check-prefixes) or starts two or
// more lines: a typo is a one-off, another prefix is not.

// lintIssue is one lint finding.
type lintIssue struct {
	at  loc
	msg string
}

// directiveSuffixes are the words that may follow "PREFIX-".
var directiveSuffixes = []string{"NEXT", "SAME", "NOT", "DAG", "LABEL", "EMPTY", "COUNT"}

// lineWord is the first word of a line, when it is in directive position.
type lineWord struct {
	start int    // offset in the file
	word  string // [A-Za-z0-9_-]+, starting with a letter, digit or '_'
	next  string // the rest of the line after the word
}

func isWordStart(c byte) bool { return isAlnum(c) || c == '_' }

// firstWords returns the directive-position word of each line.
func firstWords(text string) []lineWord {
	var words []lineWord
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		i := start
		for i < end && !isWordStart(text[i]) && text[i] != '\r' {
			i++
		}
		if i < end && isWordStart(text[i]) {
			j := i
			for j < end && isPartOfWord(text[j]) {
				j++
			}
			words = append(words, lineWord{start: i, word: text[i:j], next: text[j:end]})
		}
		start = end + 1
	}
	return words
}

// stripDirectiveSuffix removes a valid "-SUFFIX" or "-COUNT-n" from w.
func stripDirectiveSuffix(w string) string {
	for _, s := range directiveSuffixes {
		if s == "COUNT" {
			if i := strings.LastIndex(w, "-COUNT-"); i > 0 {
				if _, n := parseDecimalPrefix(w[i+7:]); n > 0 && n == len(w)-i-7 {
					return w[:i]
				}
			}
			continue
		}
		if strings.HasSuffix(w, "-"+s) && len(w) > len(s)+1 {
			return w[:len(w)-len(s)-1]
		}
	}
	return w
}

// osaDistance is the optimal-string-alignment distance: edits are
// insertions, deletions, substitutions and swaps of adjacent bytes.
func osaDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func hasLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			return true
		}
	}
	return false
}

// nearPrefix reports whether w looks like a misspelling of prefix p.
func nearPrefix(w, p string) bool {
	if len(p) < 3 || w == p || (hasLower(w) && !hasLower(p)) {
		return false
	}
	limit := 1
	if len(p) >= 8 {
		limit = 2
	}
	return osaDistance(w, p) <= limit
}

// nearSuffix returns the directive suffix that s looks like a misspelling
// of, or "".
func nearSuffix(s string) string {
	u := strings.ToUpper(s)
	for _, d := range directiveSuffixes {
		if u == d || osaDistance(u, d) <= 1 {
			return d
		}
	}
	return ""
}

// colonFollows reports whether rest (the text after a word) starts with a
// directive's colon, possibly after a {MODIFIERS} list.
func colonFollows(rest string) bool {
	if strings.HasPrefix(rest, "{") {
		if i := strings.Index(rest, "}"); i > 0 {
			rest = rest[i+1:]
		}
	}
	return strings.HasPrefix(rest, ":")
}

// lint returns the near-miss directives in the check file.
func (c *checker) lint(f *sourceFile) []lintIssue {
	known := map[string]bool{}
	for _, p := range c.prefixes {
		known[p] = true
	}
	for _, p := range c.comments {
		known[p] = true
	}
	type candidate struct {
		issue lintIssue
		base  string // "" if no exemption applies
	}
	var cands []candidate
	words := firstWords(f.text)
	for _, w := range words {
		if known[w.word] || c.isComment(w.word) {
			continue
		}
		at := loc{f, w.start}
		if colonFollows(w.next) {
			if c.recognized(w.word + w.next) {
				continue
			}
			base := stripDirectiveSuffix(w.word)
			if issue, ok := c.lintSuffix(w.word, at); ok {
				cands = append(cands, candidate{issue, base})
				continue
			}
			if known[base] {
				continue
			}
			for _, p := range c.prefixes {
				if nearPrefix(base, p) {
					fixed := p + w.word[len(base):]
					cands = append(cands, candidate{lintIssue{at, "'" + w.word + ":' is not a directive and is ignored; did you mean '" + fixed + ":'?"}, base})
					break
				}
			}
			continue
		}
		if w.next != "" && w.next[0] != ' ' && w.next[0] != '\t' && w.next[0] != '\r' {
			continue
		}
		if proseFollows(w.next) {
			continue
		}
		for _, p := range c.prefixes {
			if strings.HasPrefix(w.word, p+"-") && isDirectiveSuffix(w.word[len(p)+1:]) {
				cands = append(cands, candidate{issue: lintIssue{at, "'" + w.word + "' is not followed by ':' and is ignored; did you mean '" + w.word + ":'?"}})
				break
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}

	// Exempt words that look like other prefixes: those that also occur
	// outside directive position, or start two or more lines.
	inDirective := map[string]int{}
	for _, w := range words {
		inDirective[stripDirectiveSuffix(w.word)]++
	}
	occurrences := map[string]int{}
	for _, cd := range cands {
		if cd.base != "" {
			occurrences[cd.base] = 0
		}
	}
	text := f.text
	for i := 0; i < len(text); {
		if !isWordStart(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isPartOfWord(text[j]) {
			j++
		}
		if i == 0 || !isPartOfWord(text[i-1]) {
			if b := stripDirectiveSuffix(text[i:j]); b != "" {
				if _, ok := occurrences[b]; ok {
					occurrences[b]++
				}
			}
		}
		i = j
	}
	var issues []lintIssue
	for _, cd := range cands {
		if cd.base != "" && (inDirective[cd.base] >= 2 || occurrences[cd.base] > inDirective[cd.base]) {
			continue
		}
		issues = append(issues, cd.issue)
	}
	return issues
}

// proseWords are words that, after a directive name, mark a sentence
// about the directive rather than a directive with a missing colon
// ("; CHECK-LABEL directives split the input").
var proseWords = map[string]bool{
	"a": true, "after": true, "also": true, "an": true, "and": true, "are": true,
	"as": true, "at": true, "be": true, "before": true, "block": true, "blocks": true,
	"but": true, "by": true, "can": true, "cannot": true, "check": true, "checks": true,
	"directive": true, "directives": true, "does": true, "doesn't": true, "for": true,
	"from": true, "group": true, "groups": true, "has": true, "have": true, "if": true,
	"iff": true, "in": true, "is": true, "isn't": true, "it": true, "line": true,
	"lines": true, "match": true, "matches": true, "must": true, "not": true, "of": true,
	"on": true, "only": true, "or": true, "pattern": true, "patterns": true,
	"should": true, "so": true, "that": true, "the": true, "then": true, "to": true,
	"was": true, "when": true, "which": true, "will": true, "with": true,
	"without": true, "would": true,
}

// proseFollows reports whether rest, the text after a directive name,
// reads as English prose.
func proseFollows(rest string) bool {
	f := strings.Fields(rest)
	return len(f) > 0 && proseWords[strings.ToLower(strings.TrimRight(f[0], ".,;:"))]
}

// lintSuffix flags "PREFIX-X:" where X is close to a directive suffix.
func (c *checker) lintSuffix(word string, at loc) (lintIssue, bool) {
	for _, p := range c.prefixes {
		if !strings.HasPrefix(word, p+"-") {
			continue
		}
		suffix := word[len(p)+1:]
		want := nearSuffix(suffix)
		if want == "" {
			continue
		}
		if want == "COUNT" {
			return lintIssue{at, "'" + word + ":' is not a directive and is ignored; did you mean '" + p + "-COUNT-<n>:'?"}, true
		}
		return lintIssue{at, "'" + word + ":' is not a directive and is ignored; did you mean '" + p + "-" + want + ":'?"}, true
	}
	return lintIssue{}, false
}

func isDirectiveSuffix(s string) bool {
	for _, d := range directiveSuffixes {
		if s == d && d != "COUNT" {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(s, "COUNT-"); ok {
		_, n := parseDecimalPrefix(rest)
		return n > 0 && n == len(rest)
	}
	return false
}

func (c *checker) isComment(w string) bool {
	for _, p := range c.comments {
		if w == p {
			return true
		}
	}
	return false
}

// recognized reports whether LLVM would treat s (a word and the rest of
// its line) as a directive of some prefix, valid or diagnosed.
func (c *checker) recognized(s string) bool {
	for _, p := range c.prefixes {
		if strings.HasPrefix(s, p) {
			if t, _, _ := findCheckType(s, p, false); t.kind != kindNone {
				return true
			}
		}
	}
	return false
}
