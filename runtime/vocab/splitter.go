package vocab

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// splitter splits text by a pre-tokeniser regex as Oniguruma would
// (the tokenizers library's engine): its matches and the text between
// them are the pieces. The pattern's top-level alternatives are tried
// in order at each position, leftmost-first; the lookaheads real
// tokenizers use are handled as themselves: \s+(?!\S) (a run of
// whitespace that leaves its last character to the next word) as an
// alternative, and SuperBPE's digitGroups as the whole pattern. \s and
// \S are Unicode's White_Space, as in Oniguruma.
type splitter struct {
	alts []*regexp.Regexp // nil: \s+(?!\S)
	// digitGroups: the pattern is digitGroups.
	digitGroups bool
}

// digitGroups is SuperBPE's pattern, a lookahead that matches the empty
// string before each digit from which a multiple of three digits runs
// to the number's end: its tokenizer.json's Split (behavior Isolated)
// keeps the text between those matches, so 1234567 splits as 1, 234,
// 567. \d is Oniguruma's Unicode one, the decimal digits (Nd).
const digitGroups = `(?=(\d{3})+(?!\d))`

func newSplitter(pattern string) (*splitter, error) {
	if pattern == digitGroups {
		return &splitter{digitGroups: true}, nil
	}
	s := &splitter{}
	for _, alt := range topAlternatives(pattern) {
		if alt == `\s+(?!\S)` {
			s.alts = append(s.alts, nil)
			continue
		}
		if strings.Contains(alt, "(?=") || strings.Contains(alt, "(?!") || strings.Contains(alt, "(?<") {
			return nil, fmt.Errorf("the pre-tokenizer regex %q has a lookaround other than \\s+(?!\\S) and, as the whole pattern, %s, which rlx does not apply", alt, digitGroups)
		}
		re, err := regexp.Compile(`^(?:` + unicodeSpace(alt) + `)`)
		if err != nil {
			return nil, fmt.Errorf("the pre-tokenizer regex %q: %v", alt, err)
		}
		s.alts = append(s.alts, re)
	}
	return s, nil
}

// topAlternatives splits a pattern at its top-level |.
func topAlternatives(p string) []string {
	var out []string
	depth, class, start := 0, false, 0
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
			if i+1 < len(p) && p[i+1] == '^' {
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				i++ // a ] first in the class is a member
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return append(out, p[start:])
}

// whiteSpace is Unicode's White_Space as a class body.
const whiteSpace = `\t\n\v\f\r\x{85}\p{Z}`

// unicodeSpace rewrites \s and \S for Go, whose \s is ASCII only.
func unicodeSpace(p string) string {
	var b strings.Builder
	class := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			switch d := p[i+1]; {
			case d == 's' && class:
				b.WriteString(whiteSpace)
			case d == 's':
				b.WriteString("[" + whiteSpace + "]")
			case d == 'S' && !class:
				b.WriteString("[^" + whiteSpace + "]")
			default:
				b.WriteByte(c)
				b.WriteByte(d)
			}
			i++
			continue
		}
		switch {
		case c == '[' && !class:
			class = true
		case c == ']' && class:
			class = false
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isSpace reports Unicode's White_Space.
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// split returns the matches of s's pattern in text and the gaps between.
func (s *splitter) split(text string) []string {
	if s.digitGroups {
		return splitDigitGroups(text)
	}
	var out []string
	gap := 0
	for i := 0; i < len(text); {
		n := s.matchAt(text[i:])
		if n == 0 {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			continue
		}
		if i > gap {
			out = append(out, text[gap:i])
		}
		out = append(out, text[i:i+n])
		i += n
		gap = i
	}
	if gap < len(text) {
		out = append(out, text[gap:])
	}
	return out
}

// matchAt returns the length of the first alternative's match at the
// start of t, or 0.
func (s *splitter) matchAt(t string) int {
	for _, re := range s.alts {
		if re != nil {
			if loc := re.FindStringIndex(t); loc != nil && loc[1] > 0 {
				return loc[1]
			}
			continue
		}
		// \s+(?!\S): the whitespace run, less its last character when a
		// non-space follows; nothing when that leaves none.
		n, last := 0, 0
		for n < len(t) {
			r, size := utf8.DecodeRuneInString(t[n:])
			if !isSpace(r) {
				break
			}
			last, n = size, n+size
		}
		if n > 0 && n < len(t) {
			n -= last
		}
		if n > 0 {
			return n
		}
	}
	return 0
}

// splitDigitGroups splits text where digitGroups matches: before each
// decimal digit from which a multiple of three digits (itself the
// first) runs to the number's end. A match at the text's start makes no
// empty piece: the library drops empty pieces.
func splitDigitGroups(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsDigit(r) {
			i += size
			continue
		}
		end, n := i, 0 // the run of digits from i, n of them
		for end < len(text) {
			r, size := utf8.DecodeRuneInString(text[end:])
			if !unicode.IsDigit(r) {
				break
			}
			end, n = end+size, n+1
		}
		for ; i < end; n-- {
			if n%3 == 0 && i > start {
				out = append(out, text[start:i])
				start = i
			}
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}
