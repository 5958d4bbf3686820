package ir

import (
	"math/big"
	"strings"
)

// floatToString formats a value the way APFloat::toString does. precision 0
// means "enough digits to round-trip the format"; maxPadding 0 forces
// scientific notation; truncateZero selects the compact form (upper-case
// exponent marker, no zero padding). MLIR's printer relies on the exact digit
// selection of this routine, including its truncating first step, so it is
// followed closely.
func floatToString(f apfloat, precision, maxPadding int, truncateZero bool) string {
	var sb strings.Builder
	switch f.kind {
	case fpInf:
		if f.neg {
			return "-Inf"
		}
		return "+Inf"
	case fpNaN:
		return "NaN"
	case fpZero:
		if f.neg {
			sb.WriteByte('-')
		}
		if maxPadding == 0 {
			if truncateZero {
				sb.WriteString("0.0E+0")
			} else {
				sb.WriteString("0.0")
				if precision > 1 {
					sb.WriteString(strings.Repeat("0", precision-1))
				}
				sb.WriteString("e+00")
			}
		} else {
			sb.WriteByte('0')
		}
		return sb.String()
	}
	if f.neg {
		sb.WriteByte('-')
	}
	sem := f.sem
	exp := f.exp - (sem.Precision - 1)
	sig := new(big.Int).Set(f.sig)
	if precision == 0 {
		precision = 2 + sem.Precision*59/196
	}
	// Ignore trailing binary zeros.
	if tz := sig.TrailingZeroBits(); tz > 0 {
		exp += int(tz)
		sig.Rsh(sig, tz)
	}
	// Change the exponent from 2^e to 10^e.
	if exp > 0 {
		sig.Lsh(sig, uint(exp))
		exp = 0
	} else if exp < 0 {
		texp := -exp
		five := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(texp)), nil)
		sig.Mul(sig, five)
	}
	// First cut: drop decimal digits that are surely beyond the precision,
	// by truncation, estimating digits from the bit length.
	{
		bits := sig.BitLen()
		bitsRequired := (precision*196 + 58) / 59
		if bits > bitsRequired {
			tensRemovable := (bits - bitsRequired) * 59 / 196
			if tensRemovable > 0 {
				exp += tensRemovable
				div := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(tensRemovable)), nil)
				sig.Quo(sig, div)
			}
		}
	}
	// Digits, least significant first, without trailing zeros.
	digits := []byte(sig.String())
	for i, j := 0, len(digits)-1; i < j; i, j = i+1, j-1 {
		digits[i], digits[j] = digits[j], digits[i]
	}
	n := 0
	for n < len(digits) && digits[n] == '0' {
		n++
	}
	exp += n
	buf := digits[n:]
	// Round to precision digits, half up.
	if len(buf) > precision {
		first := len(buf) - precision
		if buf[first-1] < '5' {
			for first < len(buf) && buf[first] == '0' {
				first++
			}
			exp += first
			buf = buf[first:]
		} else {
			i := first
			for ; i < len(buf); i++ {
				if buf[i] == '9' {
					first++
				} else {
					buf[i]++
					break
				}
			}
			if first == len(buf) {
				exp += first
				buf = []byte{'1'}
			} else {
				exp += first
				buf = buf[first:]
			}
		}
	}
	nd := len(buf)
	scientific := true
	if maxPadding != 0 {
		if exp >= 0 {
			scientific = exp > maxPadding || nd+exp > precision
		} else {
			msd := exp + nd - 1
			if msd >= 0 {
				scientific = false
			} else {
				scientific = -msd > maxPadding
			}
		}
	}
	if scientific {
		exp += nd - 1
		sb.WriteByte(buf[nd-1])
		sb.WriteByte('.')
		if nd == 1 && truncateZero {
			sb.WriteByte('0')
		} else {
			for i := 1; i < nd; i++ {
				sb.WriteByte(buf[nd-1-i])
			}
		}
		if !truncateZero && precision > nd-1 {
			sb.WriteString(strings.Repeat("0", precision-nd+1))
		}
		if truncateZero {
			sb.WriteByte('E')
		} else {
			sb.WriteByte('e')
		}
		if exp >= 0 {
			sb.WriteByte('+')
		} else {
			sb.WriteByte('-')
			exp = -exp
		}
		es := itoa(exp)
		if !truncateZero && len(es) < 2 {
			sb.WriteByte('0')
		}
		sb.WriteString(es)
		return sb.String()
	}
	if exp >= 0 {
		for i := 0; i < nd; i++ {
			sb.WriteByte(buf[nd-1-i])
		}
		sb.WriteString(strings.Repeat("0", exp))
		return sb.String()
	}
	whole := exp + nd
	i := 0
	if whole > 0 {
		for ; i < whole; i++ {
			sb.WriteByte(buf[nd-i-1])
		}
		sb.WriteByte('.')
	} else {
		sb.WriteString("0.")
		sb.WriteString(strings.Repeat("0", -whole))
	}
	for ; i < nd; i++ {
		sb.WriteByte(buf[nd-i-1])
	}
	return sb.String()
}

func itoa(v int) string {
	if v == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return string(b[i:])
}

// formatFloatMLIR prints a float the way MLIR's attribute printer does: the
// six-digit exponent form when it reads back to the same bits, else the
// shortest APFloat form when that contains a '.', else the hex bit pattern.
// The boolean reports whether hex was used.
func formatFloatMLIR(f apfloat) (string, bool) {
	if f.kind != fpInf && f.kind != fpNaN {
		s := floatToString(f, 6, 0, false)
		if back, ok := parseDecimalFloat(f.sem, s); ok && sameBits(back, f) {
			return s, false
		}
		s = floatToString(f, 0, 3, true)
		if strings.Contains(s, ".") {
			return s, false
		}
	}
	return "0x" + strings.ToUpper(f.encode().Text(16)), true
}

func sameBits(a, b apfloat) bool {
	return a.encode().Cmp(b.encode()) == 0
}
