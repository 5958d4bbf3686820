package llvmescape

import "strings"

// String returns s with backslash, tab, newline and double quote written
// as \\, \t, \n and \", printable ASCII kept, and every other byte as a
// three-digit octal escape (\ooo).
func String(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			sb.WriteString(`\\`)
		case c == '\t':
			sb.WriteString(`\t`)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '"':
			sb.WriteString(`\"`)
		case c >= ' ' && c <= '~':
			sb.WriteByte(c)
		default:
			sb.WriteByte('\\')
			sb.WriteByte('0' + c>>6&7)
			sb.WriteByte('0' + c>>3&7)
			sb.WriteByte('0' + c&7)
		}
	}
	return sb.String()
}
