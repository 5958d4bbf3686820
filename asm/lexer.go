package asm

import "strconv"

// tokKind classifies a token.
type tokKind uint8

const (
	tokEOF tokKind = iota
	tokError
	tokBareIdent    // foo, i32, func.func
	tokAtIdent      // @foo, @"foo"
	tokPercentIdent // %foo, %0
	tokCaretIdent   // ^bb0
	tokHashIdent    // #map
	tokBangIdent    // !foo.bar
	tokInteger      // 42, 0x2A
	tokFloat        // 1.5, 1.0e-3
	tokString       // "…"
	tokArrow        // ->
	tokColon
	tokComma
	tokEqual
	tokLParen
	tokRParen
	tokLBrace
	tokRBrace
	tokLSquare
	tokRSquare
	tokLess
	tokGreater
	tokQuestion
	tokStar
	tokPlus
	tokMinus
	tokEllipsis
	tokVerticalBar
	tokFileMetadataBegin // {-#
	tokFileMetadataEnd   // #-}
)

var tokNames = [...]string{
	tokEOF: "end of file", tokError: "error", tokBareIdent: "identifier",
	tokAtIdent: "symbol", tokPercentIdent: "SSA value", tokCaretIdent: "block name",
	tokHashIdent: "attribute alias", tokBangIdent: "type alias", tokInteger: "integer",
	tokFloat: "float", tokString: "string", tokArrow: "'->'", tokColon: "':'",
	tokComma: "','", tokEqual: "'='", tokLParen: "'('", tokRParen: "')'",
	tokLBrace: "'{'", tokRBrace: "'}'", tokLSquare: "'['", tokRSquare: "']'",
	tokLess: "'<'", tokGreater: "'>'", tokQuestion: "'?'", tokStar: "'*'",
	tokPlus: "'+'", tokMinus: "'-'", tokEllipsis: "'...'", tokVerticalBar: "'|'",
	tokFileMetadataBegin: "'{-#'", tokFileMetadataEnd: "'#-}'",
}

// token is a lexed token: its kind and byte range in the source. For
// tokError, msg says what is wrong.
type token struct {
	kind       tokKind
	start, end int
	msg        string
}

// lexer turns source bytes into tokens on demand.
type lexer struct {
	src []byte
	pos int
}

func isAlpha(c byte) bool    { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isIDPunct(c byte) bool  { return c == '$' || c == '.' || c == '_' || c == '-' }

func (l *lexer) peekByte(i int) byte {
	if i < len(l.src) {
		return l.src[i]
	}
	return 0
}

func (l *lexer) errorTok(pos int, msg string) token {
	return token{kind: tokError, start: pos, end: pos + 1, msg: msg}
}

// next returns the next token.
func (l *lexer) next() token {
	for {
		if l.pos >= len(l.src) {
			return token{kind: tokEOF, start: len(l.src), end: len(l.src)}
		}
		start := l.pos
		c := l.src[l.pos]
		l.pos++
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '_':
			return l.bareIdent(start)
		case ':':
			return token{kind: tokColon, start: start, end: l.pos}
		case ',':
			return token{kind: tokComma, start: start, end: l.pos}
		case '.':
			if l.peekByte(l.pos) == '.' && l.peekByte(l.pos+1) == '.' {
				l.pos += 2
				return token{kind: tokEllipsis, start: start, end: l.pos}
			}
			// MLIR reports this after the first dot.
			return l.errorTok(l.pos, "expected three consecutive dots for an ellipsis")
		case '(':
			return token{kind: tokLParen, start: start, end: l.pos}
		case ')':
			return token{kind: tokRParen, start: start, end: l.pos}
		case '{':
			if l.peekByte(l.pos) == '-' && l.peekByte(l.pos+1) == '#' {
				l.pos += 2
				return token{kind: tokFileMetadataBegin, start: start, end: l.pos}
			}
			return token{kind: tokLBrace, start: start, end: l.pos}
		case '}':
			return token{kind: tokRBrace, start: start, end: l.pos}
		case '[':
			return token{kind: tokLSquare, start: start, end: l.pos}
		case ']':
			return token{kind: tokRSquare, start: start, end: l.pos}
		case '<':
			return token{kind: tokLess, start: start, end: l.pos}
		case '>':
			return token{kind: tokGreater, start: start, end: l.pos}
		case '=':
			return token{kind: tokEqual, start: start, end: l.pos}
		case '+':
			return token{kind: tokPlus, start: start, end: l.pos}
		case '*':
			return token{kind: tokStar, start: start, end: l.pos}
		case '?':
			return token{kind: tokQuestion, start: start, end: l.pos}
		case '|':
			return token{kind: tokVerticalBar, start: start, end: l.pos}
		case '-':
			if l.peekByte(l.pos) == '>' {
				l.pos++
				return token{kind: tokArrow, start: start, end: l.pos}
			}
			return token{kind: tokMinus, start: start, end: l.pos}
		case '/':
			if l.peekByte(l.pos) == '/' {
				// A comment ends at a line feed or a carriage return.
				for l.pos < len(l.src) && l.src[l.pos] != '\n' && l.src[l.pos] != '\r' {
					l.pos++
				}
				continue
			}
			return l.errorTok(start, "unexpected character")
		case '@':
			return l.atIdent(start)
		case '#':
			if l.peekByte(l.pos) == '-' && l.peekByte(l.pos+1) == '}' {
				l.pos += 2
				return token{kind: tokFileMetadataEnd, start: start, end: l.pos}
			}
			return l.prefixedIdent(start, tokHashIdent, "invalid attribute name")
		case '%':
			return l.prefixedIdent(start, tokPercentIdent, "invalid SSA name")
		case '^':
			return l.prefixedIdent(start, tokCaretIdent, "invalid block name")
		case '!':
			return l.prefixedIdent(start, tokBangIdent, "invalid type identifier")
		case '"':
			return l.stringLit(start)
		case 0:
			// MLIR's lexer takes a NUL inside the buffer for whitespace: only
			// the one LLVM puts after the buffer ends the input.
			continue
		default:
			if isAlpha(c) {
				return l.bareIdent(start)
			}
			if isDigit(c) {
				return l.number(start)
			}
			return l.errorTok(start, "unexpected character")
		}
	}
}

func (l *lexer) bareIdent(start int) token {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if isAlpha(c) || isDigit(c) || c == '_' || c == '$' || c == '.' {
			l.pos++
			continue
		}
		break
	}
	return token{kind: tokBareIdent, start: start, end: l.pos}
}

func (l *lexer) atIdent(start int) token {
	c := l.peekByte(l.pos)
	if c == '"' {
		l.pos++
		t := l.stringLit(l.pos - 1)
		if t.kind == tokError {
			return t
		}
		return token{kind: tokAtIdent, start: start, end: l.pos}
	}
	if !isAlpha(c) && c != '_' {
		return l.errorTok(l.pos, "@ identifier expected to start with letter or '_'")
	}
	l.pos++
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if isAlpha(c) || isDigit(c) || c == '_' || c == '$' || c == '.' {
			l.pos++
			continue
		}
		break
	}
	return token{kind: tokAtIdent, start: start, end: l.pos}
}

func (l *lexer) prefixedIdent(start int, kind tokKind, errMsg string) token {
	c := l.peekByte(l.pos)
	switch {
	case isDigit(c):
		for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
			l.pos++
		}
	case isAlpha(c) || isIDPunct(c):
		for l.pos < len(l.src) {
			c := l.src[l.pos]
			if isAlpha(c) || isDigit(c) || isIDPunct(c) {
				l.pos++
				continue
			}
			break
		}
	default:
		return l.errorTok(l.pos-1, errMsg)
	}
	return token{kind: kind, start: start, end: l.pos}
}

// stringLit lexes a string whose opening quote is at start.
func (l *lexer) stringLit(start int) token {
	for {
		if l.pos >= len(l.src) {
			return l.errorTok(l.pos, "expected '\"' in string literal")
		}
		c := l.src[l.pos]
		l.pos++
		switch c {
		case '"':
			return token{kind: tokString, start: start, end: l.pos}
		case '\n', '\v', '\f':
			return l.errorTok(l.pos-1, "expected '\"' in string literal")
		case '\\':
			n := l.peekByte(l.pos)
			switch {
			case n == '"' || n == '\\' || n == 'n' || n == 't':
				l.pos++
			case isHexDigit(n) && isHexDigit(l.peekByte(l.pos+1)):
				l.pos += 2
			default:
				return l.errorTok(l.pos-1, "unknown escape in string literal")
			}
		}
	}
}

func (l *lexer) number(start int) token {
	if l.src[start] == '0' && l.peekByte(l.pos) == 'x' {
		if !isHexDigit(l.peekByte(l.pos + 1)) {
			return token{kind: tokInteger, start: start, end: l.pos}
		}
		l.pos += 2
		for l.pos < len(l.src) && isHexDigit(l.src[l.pos]) {
			l.pos++
		}
		return token{kind: tokInteger, start: start, end: l.pos}
	}
	for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
		l.pos++
	}
	if l.peekByte(l.pos) != '.' {
		return token{kind: tokInteger, start: start, end: l.pos}
	}
	l.pos++
	for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
		l.pos++
	}
	if c := l.peekByte(l.pos); c == 'e' || c == 'E' {
		n1 := l.peekByte(l.pos + 1)
		if isDigit(n1) || ((n1 == '-' || n1 == '+') && isDigit(l.peekByte(l.pos+2))) {
			l.pos += 2
			for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
				l.pos++
			}
		}
	}
	return token{kind: tokFloat, start: start, end: l.pos}
}

// unescape decodes the body of a string token (without quotes).
func unescape(b []byte) string {
	hasEscape := false
	for _, c := range b {
		if c == '\\' {
			hasEscape = true
			break
		}
	}
	if !hasEscape {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			out = append(out, c)
			continue
		}
		i++
		switch b[i] {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case '"', '\\':
			out = append(out, b[i])
		default:
			if i+1 < len(b) {
				out = append(out, hexVal(b[i])<<4|hexVal(b[i+1]))
				i++
			}
		}
	}
	return string(out)
}

func hexVal(c byte) byte {
	switch {
	case isDigit(c):
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

// intValue is the value of an integer token as MLIR's
// Token::getUInt64IntegerValue reads it: hexadecimal after "0x", decimal
// otherwise (leading zeros are not octal). ok is false when it does not
// fit in bits bits.
func intValue(spelling []byte, bits int) (v uint64, ok bool) {
	s := string(spelling)
	var err error
	if len(s) > 1 && s[1] == 'x' {
		v, err = strconv.ParseUint(s[2:], 16, bits)
	} else {
		v, err = strconv.ParseUint(s, 10, bits)
	}
	return v, err == nil
}
