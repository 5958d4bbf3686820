package asm

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// parseFileMetadata parses `{-# dialect_resources: {…}, external_resources:
// {…} #-}`. Builtin dialect blobs become context resources; external
// resources are kept for the caller (reproducers live there). Keys,
// values and their errors follow MLIR's TopLevelOperationParser: a value
// is any one token, judged by the group's handler.
func (p *parser) parseFileMetadata() {
	p.advance()
	if p.consumeIf(tokFileMetadataEnd) {
		return
	}
	for {
		if !p.is(tokBareIdent) {
			p.failTok("expected identifier key in file metadata dictionary")
		}
		key := p.spelling()
		kpos := p.tok.start
		p.advance()
		p.expect(tokColon, "")
		switch key {
		case "dialect_resources":
			p.parseResourceGroups(true)
		case "external_resources":
			p.parseResourceGroups(false)
		default:
			p.fail(kpos, "unknown key '%s' in file metadata dictionary", key)
		}
		if !p.consumeIf(tokComma) {
			break
		}
	}
	if !p.is(tokFileMetadataEnd) {
		p.failExpected("expected ',' or '#-}'")
	}
	p.advance()
}

func (p *parser) parseResourceGroups(dialect bool) {
	p.expect(tokLBrace, "")
	if p.consumeIf(tokRBrace) {
		return
	}
	for {
		if !p.is(tokBareIdent) {
			p.failTok("expected identifier key for 'resource' entry")
		}
		group := p.spelling()
		gpos := p.tok.start
		p.advance()
		p.expect(tokColon, "")
		p.expect(tokLBrace, "")
		// What the group's handler does with its entries: builtin and
		// MLIR's test dialect take blobs; external groups take strings,
		// blobs and booleans (mlir-opt's fallback resource map).
		blobs, opaque := false, false
		if dialect {
			switch {
			case group == "builtin":
				blobs = true
			case group == "test" && p.ctx.AllowUnregistered && !p.ctx.IsDialectRegistered(group):
				// MLIR's test dialect keeps resource entries and prints
				// the ones its attributes refer to; rlx keeps them opaque.
				blobs, opaque = true, true
			case p.ctx.IsDialectRegistered(group) || p.ctx.AllowUnregistered && ir.IsUpstreamDialect(group):
				p.failTok("unexpected 'resource' section for dialect '%s'", group)
			default:
				p.fail(gpos, "dialect '%s' is unknown", group)
			}
		}
		entries := p.parseResourceEntries(dialect, blobs)
		switch {
		case !dialect:
			g := ir.ResourceGroup{Name: group, Entries: make([]ir.ResourceEntry, len(entries))}
			for i, e := range entries {
				g.Entries[i] = e.ResourceEntry
			}
			p.external = append(p.external, g)
		case opaque:
			for _, e := range entries {
				p.ctx.SetOpaqueResource(group, e.Key, e.printed())
			}
		default:
			for _, e := range entries {
				align := binary.LittleEndian.Uint32(e.blob[:4])
				p.ctx.SetResource(e.Key, &ir.ResourceBlob{Alignment: align, Data: e.blob[4:]})
			}
		}
		if !p.consumeIf(tokComma) {
			break
		}
	}
	if !p.is(tokRBrace) {
		p.failExpected("expected ',' or '}'")
	}
	p.advance()
}

// parseResourceEntries parses the entries of one group after its '{'.
// Keys are identifiers (mlir-opt 19 takes no strings there). With blobs
// every value must be a blob.
func (p *parser) parseResourceEntries(dialect, blobs bool) []resourceEntry {
	var out []resourceEntry
	if p.consumeIf(tokRBrace) {
		return out
	}
	for {
		var e resourceEntry
		e.pos = p.tok.start
		switch {
		case p.is(tokBareIdent):
			e.Key = p.spelling()
		case dialect:
			p.failTok("expected identifier key for 'resource' entry")
		default:
			p.failTok("expected identifier key for 'external_resources' entry")
		}
		p.advance()
		p.expect(tokColon, "")
		val := p.tok
		p.advance()
		isBool := val.kind == tokBareIdent && (string(p.text(val)) == "true" || string(p.text(val)) == "false")
		isBlob := val.kind == tokString && bytes.HasPrefix(p.text(val), []byte(`"0x`))
		switch {
		case blobs || isBlob:
			e.blob = p.resourceBlob(val, e.Key)
			e.Str, e.IsStr = unescape(p.src[val.start+1:val.end-1]), true
		case isBool:
			e.Bool = string(p.text(val)) == "true"
		case val.kind == tokString:
			e.Str, e.IsStr = unescape(p.src[val.start+1:val.end-1]), true
		default:
			p.fail(val.start, "expected string value for key '%s'", e.Key)
		}
		out = append(out, e)
		if !p.consumeIf(tokComma) {
			break
		}
	}
	if !p.is(tokRBrace) {
		p.failExpected("expected ',' or '}'")
	}
	p.advance()
	return out
}

// resourceBlob decodes a blob value: a "0x…" string whose first four
// bytes are a power-of-two alignment (or zero), little-endian.
func (p *parser) resourceBlob(val token, key string) []byte {
	var b []byte
	if val.kind == tokString {
		if s := unescape(p.src[val.start+1 : val.end-1]); strings.HasPrefix(s, "0x") {
			var err error
			if b, err = hex.DecodeString(s[2:]); err != nil {
				b = nil
			}
		}
	}
	if b == nil {
		p.fail(val.start, "expected hex string blob for key '%s'", key)
	}
	if len(b) < 4 {
		p.fail(val.start, "expected hex string blob for key '%s' to encode alignment in first 4 bytes", key)
	}
	if align := binary.LittleEndian.Uint32(b[:4]); align&(align-1) != 0 {
		p.fail(val.start, "expected hex string blob for key '%s' to encode alignment in first 4 bytes, but got non-power-of-2 value: %d", key, align)
	}
	return b
}

// printed returns the entry's value as the printer writes it back.
func (e resourceEntry) printed() string {
	switch {
	case e.IsStr:
		return strconv.Quote(e.Str)
	case e.Bool:
		return "true"
	}
	return "false"
}
