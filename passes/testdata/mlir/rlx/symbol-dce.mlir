// Input for the symbol-dce cases, written for rlx. The cases run
// symbol-dce on the top-level module and, through
// builtin.module(builtin.module(symbol-dce)), on each module nested in it.

// Public functions are live; private ones live only while something live
// uses them. A private cycle and a private chain that starts at a dead
// function are dead; private declarations follow the same rule.
module {
  func.func @forward(%x: f32) -> f32 {
    %y = func.call @mlp_block(%x) : (f32) -> f32
    return %y : f32
  }
  func.func private @mlp_block(%x: f32) -> f32 {
    %y = func.call @gelu(%x) : (f32) -> f32
    return %y : f32
  }
  func.func private @gelu(f32) -> f32
  func.func private @unused_decl(f32) -> f32
  func.func private @ping(%x: f32) -> f32 {
    %y = func.call @pong(%x) : (f32) -> f32
    return %y : f32
  }
  func.func private @pong(%x: f32) -> f32 {
    %y = func.call @ping(%x) : (f32) -> f32
    return %y : f32
  }
  func.func private @dead_root(%x: f32) -> f32 {
    %y = func.call @dead_leaf(%x) : (f32) -> f32
    return %y : f32
  }
  func.func private @dead_leaf(%x: f32) -> f32 {
    return %x : f32
  }
}

// -----

// Any symbol reference keeps a symbol alive: func.constant, and
// attributes of unregistered ops, nested in arrays and dictionaries too.
// Ops that are not symbols always count as live users.
module {
  func.func private @attention_kernel()
  func.func private @mlp_kernel()
  func.func private @norm_kernel()
  func.func private @orphan_kernel()
  func.func private @table_a()
  func.func private @table_b()
  "foo.register"() {kernels = [@attention_kernel, {fallback = @mlp_kernel}]} : () -> ()
  func.func @select_norm() -> (() -> ()) {
    %k = func.constant @norm_kernel : () -> ()
    return %k : () -> ()
  }
  "foo.entry"() {target = @table_a} : () -> ()
  func.func private @only_from_dead() attributes {uses = @table_b}
}

// -----

// A reference that resolves to nothing is ignored.
module {
  func.func private @cached()
  "foo.lookup"() {hit = @cached, miss = @evicted, deep = @cache::@line} : () -> ()
}

// -----

// An unregistered op with a region might be a symbol table, so the uses
// cannot be computed: the pass fails.
module {
  func.func private @maybe_used()
  "foo.dispatch_table"() ({
    "foo.entry"() {target = @maybe_used} : () -> ()
  }) : () -> ()
}

// -----

// Nested visibility counts as not public: unused nested symbols go.
module {
  func.func nested @nested_unused() {
    return
  }
  func.func nested @nested_used() {
    return
  }
  func.func @main() {
    func.call @nested_used() : () -> ()
    return
  }
}

// -----

// Nested symbol tables: a private module nobody references goes with all
// it holds; a referenced one stays, and inside it the symbols the
// reference does not reach are removed unless public. A module with no
// name is not a symbol and is always live.
module {
  module @unused_weights attributes {sym_visibility = "private"} {
    func.func @w0() {
      return
    }
  }
  module @weights attributes {sym_visibility = "private"} {
    func.func nested @w_q() {
      return
    }
    func.func nested @w_k() {
      return
    }
    func.func private @w_v() {
      return
    }
    func.func @w_o() {
      return
    }
  }
  module {
    func.func private @anon_private() {
      return
    }
    func.func @anon_public() {
      return
    }
  }
  func.func @load() {
    "foo.load"() {param = @weights::@w_q} : () -> ()
    return
  }
}

// -----

// A public nested module is live; inside it, private symbols are kept
// only when used, and a use from the outer module reaches into it.
module {
  module @encoder {
    func.func private @embed() {
      return
    }
    func.func private @unused_pos_embed() {
      return
    }
    func.func @run() {
      func.call @embed() : () -> ()
      return
    }
    func.func private @reached_from_outside() {
      return
    }
  }
  func.func @main() {
    "foo.invoke"() {fn = @encoder::@reached_from_outside} : () -> ()
    return
  }
}

// -----

// Deeper nesting: a chain of references through two symbol tables.
module {
  module @model attributes {sym_visibility = "private"} {
    module @decoder attributes {sym_visibility = "private"} {
      func.func private @layer0() {
        return
      }
      func.func private @layer1() {
        return
      }
    }
    module @unused_head attributes {sym_visibility = "private"} {
    }
  }
  "foo.entry"() {fn = @model::@decoder::@layer1} : () -> ()
}

// -----

// Unregistered ops with sym_name are not symbol ops: they are never
// removed, and what they reference stays.
module {
  "foo.global"() {sym_name = "kv_cache", sym_visibility = "private"} : () -> ()
  "foo.global"() {sym_name = "cache_init", init = @init_cache} : () -> ()
  func.func private @init_cache() {
    return
  }
  func.func private @not_referenced() {
    return
  }
}

// -----

// A function that references itself stays dead when private and unused.
module {
  func.func private @recurse(%n: i32) -> i32 {
    %r = func.call @recurse(%n) : (i32) -> i32
    return %r : i32
  }
  func.func @public_recurse(%n: i32) -> i32 {
    %r = func.call @public_recurse(%n) : (i32) -> i32
    return %r : i32
  }
}

// -----

// A named top-level module; an attribute of a nested module is a use in
// the enclosing symbol table.
module @top {
  func.func private @used_by_module_attr()
  func.func private @unused_private()
  module @child attributes {foo.entry = @used_by_module_attr} {
  }
}
