package jinja

// at is the byte offset of a node in the normalized source.
type at int

func (a at) position() int { return int(a) }

type node interface{ position() int }

type (
	textNode struct {
		at
		s string
	}
	outputNode struct {
		at
		e expr
	}
	ifNode struct {
		at
		conds  []expr
		bodies [][]node
		els    []node
	}
	forNode struct {
		at
		target assignTarget
		iter   expr
		cond   expr
		body   []node
		els    []node
	}
	// setNode is {% set target = value %} or, with body, the block form.
	setNode struct {
		at
		target  assignTarget
		value   expr
		body    []node
		filters []*filterExpr
	}
	macroNode struct {
		at
		name     string
		params   []string
		defaults []expr // one per trailing parameter that has a default
		body     []node
	}
	breakNode    struct{ at }
	continueNode struct{ at }
	// filterBlock is {% filter %}, or with no filters {% generation %}
	// (transformers renders its body as a call block); either body has a
	// scope of its own.
	filterBlock struct {
		at
		filters []*filterExpr
		body    []node
	}
)

// assignTarget is a name, a tuple of names, or ns.attr.
type assignTarget struct {
	names []string // one name, or the names of a tuple
	tuple bool
	ns    string // set ns.attr = ...: ns is the name, names[0] the attribute
}

type expr interface{ position() int }

type (
	constExpr struct {
		at
		v any
	}
	nameExpr struct {
		at
		name string
	}
	listExpr struct {
		at
		items []expr
	}
	tupleExpr struct {
		at
		items []expr
	}
	dictExpr struct {
		at
		keys, vals []expr
	}
	getattrExpr struct {
		at
		obj  expr
		name string
	}
	getitemExpr struct {
		at
		obj, index expr
	}
	sliceExpr struct {
		at
		start, stop, step expr
	}
	callExpr struct {
		at
		fn      expr
		args    []expr
		kwNames []string
		kwVals  []expr
	}
	filterExpr struct {
		at
		arg     expr // nil in a filter block's chain
		name    string
		args    []expr
		kwNames []string
		kwVals  []expr
	}
	testExpr struct {
		at
		arg     expr
		name    string
		args    []expr
		kwNames []string
		kwVals  []expr
		negate  bool
	}
	unaryExpr struct {
		at
		op string // "not", "-", "+"
		x  expr
	}
	binExpr struct {
		at
		op   string
		l, r expr
	}
	compareExpr struct {
		at
		first expr
		ops   []string // "==", "!=", "<", "<=", ">", ">=", "in", "notin"
		rest  []expr
	}
	condExpr struct {
		at
		cond, then, els expr
	}
)
