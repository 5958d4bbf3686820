package posixre

// classes are the character classes [:name:] of regcomp's cclass table,
// with C-locale (ASCII) membership.
var classes = map[string]func(c byte) bool{
	"alnum":  func(c byte) bool { return isAlpha(c) || isDigit(c) },
	"alpha":  isAlpha,
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"cntrl":  func(c byte) bool { return c < 0x20 || c == 0x7f },
	"digit":  isDigit,
	"graph":  func(c byte) bool { return '!' <= c && c <= '~' },
	"lower":  func(c byte) bool { return 'a' <= c && c <= 'z' },
	"print":  func(c byte) bool { return ' ' <= c && c <= '~' },
	"punct":  func(c byte) bool { return '!' <= c && c <= '~' && !isAlpha(c) && !isDigit(c) },
	"space":  func(c byte) bool { return c == ' ' || ('\t' <= c && c <= '\r') },
	"upper":  func(c byte) bool { return 'A' <= c && c <= 'Z' },
	"xdigit": func(c byte) bool { return isDigit(c) || ('a' <= c|0x20 && c|0x20 <= 'f') },
}

// collNames are the collating-element names of regcomp's cname table,
// usable as [.name.] and [=name=] inside bracket expressions.
var collNames = map[string]byte{
	"NUL": 0, "SOH": 1, "STX": 2, "ETX": 3, "EOT": 4, "ENQ": 5, "ACK": 6,
	"BEL": 7, "alert": 7, "BS": 8, "backspace": 8, "HT": 9, "tab": 9,
	"LF": 10, "newline": 10, "VT": 11, "vertical-tab": 11, "FF": 12,
	"form-feed": 12, "CR": 13, "carriage-return": 13, "SO": 14, "SI": 15,
	"DLE": 16, "DC1": 17, "DC2": 18, "DC3": 19, "DC4": 20, "NAK": 21,
	"SYN": 22, "ETB": 23, "CAN": 24, "EM": 25, "SUB": 26, "ESC": 27,
	"IS4": 28, "FS": 28, "IS3": 29, "GS": 29, "IS2": 30, "RS": 30,
	"IS1": 31, "US": 31,
	"space": ' ', "exclamation-mark": '!', "quotation-mark": '"',
	"number-sign": '#', "dollar-sign": '$', "percent-sign": '%',
	"ampersand": '&', "apostrophe": '\'', "left-parenthesis": '(',
	"right-parenthesis": ')', "asterisk": '*', "plus-sign": '+',
	"comma": ',', "hyphen": '-', "hyphen-minus": '-', "period": '.',
	"full-stop": '.', "slash": '/', "solidus": '/', "zero": '0',
	"one": '1', "two": '2', "three": '3', "four": '4', "five": '5',
	"six": '6', "seven": '7', "eight": '8', "nine": '9', "colon": ':',
	"semicolon": ';', "less-than-sign": '<', "equals-sign": '=',
	"greater-than-sign": '>', "question-mark": '?', "commercial-at": '@',
	"left-square-bracket": '[', "backslash": '\\', "reverse-solidus": '\\',
	"right-square-bracket": ']', "circumflex": '^',
	"circumflex-accent": '^', "underscore": '_', "low-line": '_',
	"grave-accent": '`', "left-brace": '{', "left-curly-bracket": '{',
	"vertical-line": '|', "right-brace": '}', "right-curly-bracket": '}',
	"tilde": '~', "DEL": 127,
}
