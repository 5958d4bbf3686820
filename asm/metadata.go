package asm

import (
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// parseFileMetadata parses `{-# dialect_resources: {…}, external_resources:
// {…} #-}`. Builtin dialect blobs become context resources; external
// resources are kept for the caller (reproducers live there).
func (p *parser) parseFileMetadata() {
	p.advance()
	for !p.is(tokFileMetadataEnd) {
		if !p.is(tokBareIdent) {
			p.failExpected("expected identifier key in file metadata dictionary")
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
	p.expect(tokFileMetadataEnd, " to end file metadata")
}

func (p *parser) parseResourceGroups(dialect bool) {
	p.expect(tokLBrace, "")
	if p.consumeIf(tokRBrace) {
		return
	}
	for {
		if !p.is(tokBareIdent) {
			p.failExpected("expected identifier key for 'resource' entry")
		}
		group := p.spelling()
		gpos := p.tok.start
		p.advance()
		p.expect(tokColon, "")
		entries := p.parseResourceEntries()
		if dialect {
			switch {
			case group == "builtin":
				for _, e := range entries {
					if e.blob == nil {
						p.fail(gpos, "expected hex string blob for key '%s'", e.Key)
					}
					if len(e.blob) < 4 {
						p.fail(gpos, "expected hex string blob for key '%s' to encode alignment in first 4 bytes", e.Key)
					}
					align := binary.LittleEndian.Uint32(e.blob[:4])
					p.ctx.SetResource(e.Key, &ir.ResourceBlob{Alignment: align, Data: e.blob[4:]})
				}
			case group == "test" && p.ctx.AllowUnregistered && !p.ctx.IsDialectRegistered(group):
				// MLIR's test dialect keeps resource entries and prints
				// the ones its attributes refer to; rlx keeps them opaque.
				for _, e := range entries {
					p.ctx.SetOpaqueResource(group, e.Key, e.printed())
				}
			case p.ctx.IsDialectRegistered(group) || p.ctx.AllowUnregistered && ir.IsUpstreamDialect(group):
				if len(entries) > 0 {
					p.fail(entries[0].pos, "unexpected 'resource' section for dialect '%s'", group)
				}
			default:
				p.fail(gpos, "dialect '%s' is unknown", group)
			}
		} else {
			g := ir.ResourceGroup{Name: group, Entries: make([]ir.ResourceEntry, len(entries))}
			for i, e := range entries {
				g.Entries[i] = e.ResourceEntry
			}
			p.external = append(p.external, g)
		}
		if !p.consumeIf(tokComma) {
			break
		}
	}
	p.expect(tokRBrace, "")
}

func (p *parser) parseResourceEntries() []resourceEntry {
	p.expect(tokLBrace, "")
	var out []resourceEntry
	if p.consumeIf(tokRBrace) {
		return out
	}
	for {
		var e resourceEntry
		e.pos = p.tok.start
		switch p.tok.kind {
		case tokBareIdent:
			e.Key = p.spelling()
		case tokString:
			e.Key = p.stringValue()
		default:
			p.failExpected("expected identifier key for 'resource' entry")
		}
		p.advance()
		p.expect(tokColon, "")
		switch {
		case p.is(tokString):
			s := p.stringValue()
			if strings.HasPrefix(s, "0x") {
				b, err := hex.DecodeString(s[2:])
				if err != nil {
					p.failTok("expected hex string blob for key '%s'", e.Key)
				}
				e.blob = b
			}
			e.Str = s
			e.IsStr = true
		case p.isKeyword("true"):
			e.Bool = true
		case p.isKeyword("false"):
		default:
			p.failExpected("expected string or boolean value for resource entry")
		}
		p.advance()
		out = append(out, e)
		if !p.consumeIf(tokComma) {
			break
		}
	}
	p.expect(tokRBrace, "")
	return out
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
