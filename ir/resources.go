package ir

// ResourceBlob is the data of a dense resource (`dense_resource<name>`),
// held by the Context and printed in the file's
// `{-# dialect_resources: {builtin: …} #-}` section.
type ResourceBlob struct {
	Alignment uint32
	Data      []byte
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

// collectResources returns, in first-use order, the handles of dense
// resources printed anywhere in op.
func collectResources(op *Operation) []string {
	seen := map[string]bool{}
	var out []string
	var visitA func(Attribute)
	var visitT func(Type)
	visitT = func(t Type) { t.walkSubElements(visitT, visitA) }
	visitA = func(a Attribute) {
		if r, ok := a.(*DenseResourceElementsAttr); ok && !seen[r.Handle] {
			seen[r.Handle] = true
			out = append(out, r.Handle)
		}
		a.walkSubElements(visitT, visitA)
	}
	op.Walk(func(o *Operation) {
		if props := o.Props(); props != nil {
			visitA(props)
		}
		if o.attrs != nil {
			visitA(o.attrs)
		}
	})
	return out
}

func (p *OpPrinter) printResources(op *Operation) {
	handles := collectResources(op)
	ctx := p.ctx
	if len(handles) == 0 || ctx == nil {
		return
	}
	first := true
	for _, h := range handles {
		blob := ctx.Resource(h)
		if blob == nil {
			continue
		}
		if first {
			p.WriteString("\n{-#\n  dialect_resources: {\n    builtin: {\n")
			first = false
		} else {
			p.WriteString(",\n")
		}
		p.WriteString("      ")
		p.PrintKeywordOrString(h)
		p.WriteString(": ")
		data := make([]byte, 4, 4+len(blob.Data))
		data[0] = byte(blob.Alignment)
		data[1] = byte(blob.Alignment >> 8)
		data[2] = byte(blob.Alignment >> 16)
		data[3] = byte(blob.Alignment >> 24)
		p.printHex(append(data, blob.Data...))
	}
	if !first {
		p.WriteString("\n    }\n  }\n#-}\n")
	}
}
