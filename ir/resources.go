package ir

import "sort"

// ResourceBlob is the data of a dense resource (`dense_resource<name>`),
// held by the Context and printed in the file's
// `{-# dialect_resources: {builtin: …} #-}` section.
type ResourceBlob struct {
	Alignment uint32
	Data      []byte
}

// ResourceGroup is one group of a file's `external_resources` section,
// such as `mlir_reproducer: {pipeline: "…", verify_each: true}`.
type ResourceGroup struct {
	Name    string
	Entries []ResourceEntry
}

// ResourceEntry is one `key: value` entry of a resource group: a string
// (blobs are "0x…" strings) or a bool.
type ResourceEntry struct {
	Key   string
	Str   string
	IsStr bool
	Bool  bool
}

// SetResource stores a blob under a handle and returns the handle actually
// used: when the name is taken by different data, a `_N` suffix makes it
// unique, as MLIR's resource manager does.
func (c *Context) SetResource(handle string, blob *ResourceBlob) string {
	c.resourceMu.Lock()
	defer c.resourceMu.Unlock()
	name := handle
	for i := 1; ; i++ {
		old, ok := c.resources[name]
		if !ok {
			c.resources[name] = blob
			return name
		}
		if old.Alignment == blob.Alignment && string(old.Data) == string(blob.Data) {
			return name
		}
		name = handle + "_" + itoa(i)
	}
}

// Resource returns the blob stored under handle, or nil.
func (c *Context) Resource(handle string) *ResourceBlob {
	c.resourceMu.Lock()
	defer c.resourceMu.Unlock()
	return c.resources[handle]
}

// SetOpaqueResource keeps one entry of the resource group of a dialect rlx
// does not register (MLIR's test dialect keeps blobs this way). value is
// the entry's printed value: a quoted string (blobs are "0x…" strings) or
// `true`/`false`. The entry is printed again when an opaque attribute or
// type of that dialect names key in its body, which is how such dialects
// refer to their resources.
func (c *Context) SetOpaqueResource(dialect, key, value string) {
	c.resourceMu.Lock()
	defer c.resourceMu.Unlock()
	if c.opaqueResources == nil {
		c.opaqueResources = map[string]map[string]string{}
	}
	g := c.opaqueResources[dialect]
	if g == nil {
		g = map[string]string{}
		c.opaqueResources[dialect] = g
	}
	g[key] = value
}

// OpaqueResource returns the printed value of an entry stored with
// SetOpaqueResource.
func (c *Context) OpaqueResource(dialect, key string) (string, bool) {
	c.resourceMu.Lock()
	defer c.resourceMu.Unlock()
	v, ok := c.opaqueResources[dialect][key]
	return v, ok
}

// IsUpstreamDialect reports whether name is a dialect that mlir-opt 19
// registers. rlx accepts such dialects' syntax opaquely under
// --allow-unregistered-dialect and uses this to decide, like mlir-opt,
// between "unknown dialect" and dialect-specific errors.
func IsUpstreamDialect(name string) bool { return upstreamDialects[name] }

// resourceRef is one referenced resource entry: a builtin blob handle
// (dialect "builtin") or a key of an opaque dialect's group.
type resourceRef struct{ dialect, key string }

// collectResources returns, in first-use order, the resource entries
// printed anywhere in op: dense_resource handles and keys named by
// opaque attributes and types of dialects with stored resource groups.
func (c *Context) collectResources(op *Operation, skipRegions bool) []resourceRef {
	c.resourceMu.Lock()
	opaque := len(c.opaqueResources) > 0
	c.resourceMu.Unlock()
	seen := map[resourceRef]bool{}
	var out []resourceRef
	add := func(r resourceRef) {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	addOpaque := func(dialect, body string) {
		if !opaque {
			return
		}
		for _, id := range identifiers(body) {
			if _, ok := c.OpaqueResource(dialect, id); ok {
				add(resourceRef{dialect, id})
			}
		}
	}
	var visitA func(Attribute)
	var visitT func(Type)
	visitT = func(t Type) {
		if o, ok := t.(*OpaqueType); ok {
			addOpaque(o.Dialect, o.Data)
		}
		t.walkSubElements(visitT, visitA)
	}
	visitA = func(a Attribute) {
		switch x := a.(type) {
		case *DenseResourceElementsAttr:
			add(resourceRef{"builtin", x.Handle})
		case *OpaqueAttr:
			addOpaque(x.Dialect, x.Data)
		}
		a.walkSubElements(visitT, visitA)
	}
	visitOp := func(o *Operation) {
		if props := o.storedProps(); props != nil {
			visitA(props)
		}
		if o.attrs != nil {
			visitA(o.attrs)
		}
		if opaque {
			for _, r := range o.Results() {
				visitT(r.Type())
			}
			for i := range o.regs() {
				for b := o.regs()[i].first; b != nil; b = b.next {
					for _, a := range b.args {
						visitT(a.Type())
					}
				}
			}
		}
	}
	if skipRegions {
		// Only what is printed counts: the op without its regions.
		visitOp(op)
	} else {
		op.Walk(visitOp)
	}
	return out
}

// identifiers returns the bare identifiers in an opaque dialect body.
func identifiers(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		ch := s[i]
		if ch == '"' {
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			i++
			continue
		}
		if ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' {
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] == '$' || s[j] == '.' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, s[i:j])
			i = j
			continue
		}
		if ch >= '0' && ch <= '9' {
			for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] == '.') {
				i++
			}
			continue
		}
		i++
	}
	return out
}

func (p *OpPrinter) printResources(op *Operation) {
	ctx := p.ctx
	if ctx == nil {
		return
	}
	refs := ctx.collectResources(op, p.opts.SkipRegions)
	// Groups print in order of their first reference, entries within a
	// group in order of first use.
	var groups []string
	byGroup := map[string][]string{}
	for _, r := range refs {
		if r.dialect == "builtin" && ctx.Resource(r.key) == nil {
			continue
		}
		if _, ok := byGroup[r.dialect]; !ok {
			groups = append(groups, r.dialect)
		}
		byGroup[r.dialect] = append(byGroup[r.dialect], r.key)
	}
	// builtin first, as MLIR registers it first.
	sort.SliceStable(groups, func(i, j int) bool { return groups[i] == "builtin" && groups[j] != "builtin" })
	dialect := make([]printedGroup, 0, len(groups))
	for _, g := range groups {
		pg := printedGroup{name: g}
		for _, key := range byGroup[g] {
			e := resourceEntry{key: key}
			if g == "builtin" {
				e.blob = ctx.Resource(key)
				e.size = len(`"0x`) + 2*(4+len(e.blob.Data)) + len(`"`)
			} else {
				e.value, _ = ctx.OpaqueResource(g, key)
				e.size = len(e.value)
			}
			pg.entries = append(pg.entries, e)
		}
		dialect = append(dialect, pg)
	}
	external := make([]printedGroup, 0, len(p.opts.ExternalResources))
	for _, g := range p.opts.ExternalResources {
		pg := printedGroup{name: g.Name}
		for _, e := range g.Entries {
			v := "false"
			switch {
			case e.IsStr:
				v = string(appendQuoted(nil, e.Str))
			case e.Bool:
				v = "true"
			}
			pg.entries = append(pg.entries, resourceEntry{key: e.Key, value: v, size: len(v)})
		}
		external = append(external, pg)
	}
	if len(dialect) == 0 && len(external) == 0 {
		return
	}
	// As in MLIR, the section opens for any entry, but a group, and a
	// kind of resources, shows only with an entry short enough to print.
	dialect, external = p.elide(dialect), p.elide(external)
	p.WriteString("\n{-#\n")
	p.printResourceKind("dialect_resources", dialect, len(external) > 0)
	p.printResourceKind("external_resources", external, false)
	if len(dialect) == 0 && len(external) == 0 {
		p.WriteString("\n")
	}
	p.WriteString("#-}\n")
}

// printedGroup is a resource group about to be printed.
type printedGroup struct {
	name    string
	entries []resourceEntry
}

// resourceEntry is an entry about to be printed: its printed value (or,
// for a builtin blob, the blob, printed straight into the output), and
// that value's length, which --mlir-elide-resource-strings-if-larger
// compares with its limit.
type resourceEntry struct {
	key   string
	value string
	blob  *ResourceBlob
	size  int
}

// elide drops the entries longer than the limit, and groups left empty.
func (p *OpPrinter) elide(groups []printedGroup) []printedGroup {
	if !p.opts.ElideResourceStrings {
		return groups
	}
	out := groups[:0]
	for _, g := range groups {
		kept := g.entries[:0]
		for _, e := range g.entries {
			if e.size <= p.opts.ResourceStringLimit {
				kept = append(kept, e)
			}
		}
		if len(kept) > 0 {
			out = append(out, printedGroup{g.name, kept})
		}
	}
	return out
}

func (p *OpPrinter) printResourceKind(kind string, groups []printedGroup, more bool) {
	if len(groups) == 0 {
		return
	}
	p.WriteString("  ")
	p.WriteString(kind)
	p.WriteString(": {\n")
	for gi, g := range groups {
		if gi > 0 {
			p.WriteString(",\n")
		}
		p.WriteString("    ")
		p.PrintKeywordOrString(g.name)
		p.WriteString(": {\n")
		for i, e := range g.entries {
			if i > 0 {
				p.WriteString(",\n")
			}
			p.WriteString("      ")
			p.PrintKeywordOrString(e.key)
			p.WriteString(": ")
			if e.blob != nil {
				p.printBlob(e.blob)
			} else {
				p.WriteString(e.value)
			}
		}
		p.WriteString("\n    }")
	}
	p.WriteString("\n  }")
	if more {
		p.WriteString(",")
	}
	p.WriteString("\n")
}

// printBlob prints a builtin blob as MLIR does: a "0x…" hex string of
// its alignment as four little-endian bytes, then the data; an empty blob
// has alignment 0 in MLIR's print.
func (p *OpPrinter) printBlob(blob *ResourceBlob) {
	const hex = "0123456789ABCDEF"
	align := blob.Alignment
	if len(blob.Data) == 0 {
		align = 0
	}
	p.WriteString(`"0x`)
	for _, c := range [4]byte{byte(align), byte(align >> 8), byte(align >> 16), byte(align >> 24)} {
		p.buf = append(p.buf, hex[c>>4], hex[c&15])
	}
	for _, c := range blob.Data {
		p.buf = append(p.buf, hex[c>>4], hex[c&15])
	}
	p.buf = append(p.buf, '"')
	p.maybeFlush()
}
