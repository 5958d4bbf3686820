package asm_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// parseAndVerify parses src as in.mlir with all dialects registered and
// unregistered ops allowed, then verifies it.
func parseAndVerify(src string) error {
	ctx := ir.NewContext()
	ctx.AllowUnregistered = true
	dialect.RegisterAll(ctx)
	f, err := asm.Parse(ctx, "in.mlir", []byte(src), asm.Options{})
	if err != nil {
		return err
	}
	err = ir.Verify(f.Op)
	// The parallel verifier must find the same first failure.
	if perr := ir.Verify(f.Op, ir.VerifyOptions{Workers: 4}); fmt.Sprint(perr) != fmt.Sprint(err) {
		return fmt.Errorf("Verify sequential and with Workers disagree:\n%v\n%v", err, perr)
	}
	return err
}

// TestInvalidInput checks the located error of each malformed input. The
// messages and positions match mlir-opt 19's unless a comment says why
// they differ. (mlir-opt 19 crashes with a stack overflow on the deep
// nesting cases; rlx stops at its nesting limit.)
func TestInvalidInput(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	tests := []struct {
		name, src, want string
	}{
		{"truncated operand list", `"foo.op"(`, "in.mlir:1:9: error: expected ')' to end operand list"},
		{"truncated after comma", `"foo.op"(%a,`, "in.mlir:1:12: error: expected SSA operand"},
		{"truncated type", `"foo.op"() : () -> (`, "in.mlir:1:19: error: expected non-function type"},
		{"truncated region", "func.func @f() {\n", "in.mlir:1:17: error: expected operation name in quotes"},
		{"truncated module", `module { "foo.op"() : () -> () `, "in.mlir:1:31: error: expected operation name in quotes"},
		{"truncated tensor", `"foo.op"() : () -> tensor<4x?xf32`, "in.mlir:1:33: error: expected '>' in tensor type"},
		{"truncated dict", `"foo.op"() {a = 1`, "in.mlir:1:16: error: expected '}' in attribute dictionary"},
		{"missing colon", `"foo.op"() loc(#nope) : () -> ()`, "in.mlir:1:11: error: expected ':' followed by operation type"},
		{"bad type token", `"foo.op"() : () -> i33x`, "in.mlir:1:19: error: expected non-function type"},
		{"bad char", `"foo.op"() ; : () -> ()`, "in.mlir:1:12: error: unexpected character"},
		{"bad utf8", "\"foo.op\"() \xff: () -> ()", "in.mlir:1:12: error: unexpected character"},
		// A NUL outside a string is skipped, as by mlir-opt's lexer.
		{"nul byte", "\"foo.op\"()\x00 : () -> ()\n\x00%", "in.mlir:2:2: error: invalid SSA name"},
		{"stray dot", `"foo.op"() {a = ..} : () -> ()`, "in.mlir:1:18: error: expected three consecutive dots for an ellipsis"},
		{"unterminated string", `"foo.op"() {a = "abc} : () -> ()`, `in.mlir:1:33: error: expected '"' in string literal`},
		{"huge unterminated string", `"foo.op"() {a = "` + strings.Repeat("x", 1<<20), `in.mlir:1:1048594: error: expected '"' in string literal`},
		{"bad escape", `"foo.op"() {a = "a\qb"} : () -> ()`, "in.mlir:1:19: error: unknown escape in string literal"},
		{"bad ssa name", `% = "foo.op"() : () -> i32`, "in.mlir:1:1: error: invalid SSA name"},
		{"bad at identifier", `"foo.op"() {a = @} : () -> ()`, "in.mlir:1:18: error: @ identifier expected to start with letter or '_'"},
		{"empty op name", `"" () : () -> ()`, "in.mlir:1:1: error: empty operation name is invalid"},
		{"undefined value", `%0 = "foo.op"(%1) : (i32) -> i32`, "in.mlir:1:15: error: use of undeclared SSA value name"},
		{"undefined forward result", "\"foo.op\"(%x#5) : (i32) -> ()\n%x:2 = \"foo.op\"() : () -> (i32, i32)", "in.mlir:1:10: error: use of undeclared SSA value name"},
		{"undefined block", `"foo.op"() [^bb9] : () -> ()`, "in.mlir:1:13: error: reference to an undefined block"},
		{"undefined attr alias", `"foo.op"() {a = #undefined} : () -> ()`, "in.mlir:1:27: error: undefined symbol alias id 'undefined'"},
		{"undefined type alias", `"foo.op"() : () -> !undefined`, "in.mlir:1:29: error: undefined symbol alias id 'undefined'"},
		{"undefined loc alias", `"foo.op"() : () -> () loc(#nope)`, "in.mlir:1:27: error: operation location alias was never defined"},
		{"duplicate value", "%0 = \"foo.op\"() : () -> i32\n%0 = \"foo.op\"() : () -> i32", "in.mlir:2:1: error: redefinition of SSA value '%0'"},
		{"duplicate block", `"foo.op"() ({ ^bb0: "foo.t"() : () -> () ^bb0: "foo.t"() : () -> () }) : () -> ()`, "in.mlir:1:42: error: redefinition of block '^bb0'"},
		{"duplicate alias", "#a = 1\n#a = 2", "in.mlir:2:1: error: redefinition of attribute alias id 'a'"},
		{"duplicate dict key", `"foo.op"() {a = {b = 1, b = 2}} : () -> ()`, "in.mlir:1:25: error: duplicate key 'b' in dictionary attribute"},
		{"duplicate symbol", "func.func private @f()\nfunc.func private @f()", "in.mlir:2:1: error: redefinition of symbol named 'f'"},
		{"result count mismatch", `%x:2 = "foo.op"() : () -> i32`, "in.mlir:1:1: error: operation defines 1 results but was provided 2 to bind"},
		{"operand count mismatch", `%a = "foo.a"() : () -> i32` + "\n" + `"foo.op"(%a) : () -> ()`, "in.mlir:2:16: error: expected 1 operand type\x00 but had 0"},
		{"type mismatch with def", "%0 = \"foo.op\"() : () -> i32\n\"foo.use\"(%0) : (i64) -> ()", "in.mlir:2:11: error: use of value '%0' expects different type than prior uses: 'i64' vs 'i32'"},
		{"type mismatch between uses", "\"foo.use\"(%0) : (i64) -> ()\n\"foo.use\"(%0) : (i32) -> ()\n%0 = \"foo.op\"() : () -> i32", "in.mlir:2:11: error: use of value '%0' expects different type than prior uses: 'i32' vs 'i64'"},
		{"return type mismatch", `func.func @f(%a: i32) -> i64 { return %a : i32 }`, "in.mlir:1:32: error: type of return operand 0 ('i32') doesn't match function result type ('i64') in function @f"},
		{"return count mismatch", `func.func @f() -> i32 { return }`, "in.mlir:1:25: error: 'func.return' op has 0 operands, but enclosing function (@f) returns 1"},
		{"call to missing function", "func.func @f() { %0 = func.call @g() : () -> i32 \n return }", "in.mlir:1:23: error: 'func.call' op 'g' does not reference a valid function"},
		{"public declaration", `func.func @f()`, "in.mlir:1:1: error: 'func.func' op symbol declaration cannot have public visibility"},
		{"empty function body", `func.func @f() {}`, "in.mlir:1:16: error: custom op 'func.func' expected non-empty function body"},
		{"use before def", "func.func @f() { %0 = \"foo.op\"(%0) : (i32) -> i32 \n return }", "in.mlir:1:23: error: operand #0 does not dominate this use"},
		{"unknown custom op", `foo.bar`, "in.mlir:1:1: error: Dialect `foo' not found for custom op 'foo.bar' "},
		{"unknown op without prefix", `bogus`, "in.mlir:1:1: error: custom op 'bogus' is unknown (tried 'builtin.bogus' as well)"},
		{"unknown op in known dialect", `func.bogus`, "in.mlir:1:1: error: custom op 'func.bogus' is unknown"},
		{"integer attr overflow", `"foo.op"() {a = 300 : i8} : () -> ()`, "in.mlir:1:17: error: integer constant out of range for attribute"},
		{"huge integer literal", `"foo.op"() {a = 99999999999999999999999 : i64} : () -> ()`, "in.mlir:1:17: error: integer constant out of range for attribute"},
		{"negative unsigned", `"foo.op"() {a = -1 : ui8} : () -> ()`, "in.mlir:1:18: error: negative integer literal not valid for unsigned integer type"},
		{"dimension overflow", `"foo.op"() : () -> tensor<99999999999999999999xf32>`, "in.mlir:1:27: error: invalid dimension"},
		{"element count overflow", `"foo.op"() {a = dense<"0x00000000"> : tensor<4294967296x4294967296xf32>, b = dense<[0.0]> : tensor<4294967296x4294967296xf32>} : () -> ()`, "in.mlir:1:91: error: inferred shape of elements literal ([1]) does not match type ([4294967296, 4294967296])"},
		{"integer width limit", `"foo.op"() : () -> i99999999`, "in.mlir:1:20: error: integer bitwidth is limited to 16777215 bits"},
		{"decimal float bits", `"foo.op"() {a = 12 : f32} : () -> ()`, "in.mlir:1:17: error: unexpected decimal integer literal for a floating point value"},
		{"dense shape mismatch", `"foo.op"() {a = dense<[1, 2]> : tensor<3xi32>} : () -> ()`, "in.mlir:1:31: error: inferred shape of elements literal ([2]) does not match type ([3])"},
		{"dense float for int", `"foo.op"() {a = dense<1.5> : tensor<2xi32>} : () -> ()`, "in.mlir:1:23: error: expected integer elements, but parsed floating-point"},
		{"dense ragged", `"foo.op"() {a = dense<[[1], [2, 3]]> : tensor<2x2xi32>} : () -> ()`, "in.mlir:1:35: error: tensor literal is invalid; ranks are not consistent between elements"},
		{"dense bad hex", `"foo.op"() {a = dense<"0x0102"> : tensor<4xi32>} : () -> ()`, "in.mlir:1:33: error: elements hex data size is invalid for provided type: 'tensor<4xi32>'"},
		{"vector zero dim", `"foo.op"() : () -> vector<0xf32>`, "in.mlir:1:29: error: vector types must have positive constant sizes"},
		{"tensor of tensor", `"foo.op"() : () -> tensor<4xtensor<2xf32>>`, "in.mlir:1:29: error: invalid tensor element type"},
		{"complex of index", `"foo.op"() : () -> complex<index>`, "in.mlir:1:28: error: invalid element type for complex"},
		{"affine undeclared", `"foo.op"() {a = affine_map<(d0) -> (d1)>} : () -> ()`, "in.mlir:1:37: error: use of undeclared identifier"},
		{"memref layout rank", `"foo.op"() : () -> memref<4xf32, affine_map<(d0, d1) -> (d0)>>`, "in.mlir:1:20: error: memref layout mismatch between rank and affine map: 1 != 2"},
		{"array bad elem", `"foo.op"() {a = array<i32: 1.5>} : () -> ()`, "in.mlir:1:28: error: expected integer literal"},
		{"array unclosed", `"foo.op"() {a = [1, 2} : () -> ()`, "in.mlir:1:22: error: expected ',' or ']'"},
		{"zero stride", `"foo.op"() {a = strided<[1, 0]>} : () -> ()`, "in.mlir:1:17: error: strides must not be zero"},
		{"distinct mismatch", `"foo.op"() {a = distinct[0]<1 : i32>, b = distinct[0]<2 : i32>} : () -> ()`, "in.mlir:1:43: error: referenced attribute does not match previous definition: 1 : i32"},
		{"bad resource blob", `{-# dialect_resources: { builtin: { x: "0xzz" } } #-}`, "in.mlir:1:40: error: expected hex string blob for key 'x'"},
		{"unknown resource dialect", `{-# dialect_resources: { foo: { x: "0x01000000" } } #-}`, "in.mlir:1:26: error: dialect 'foo' is unknown"},
		{"resources of dialect without handler", `{-# dialect_resources: { arith: { x: "0x01000000" } } #-}`, "in.mlir:1:35: error: unexpected 'resource' section for dialect 'arith'"},
		{"unknown metadata key", `{-# foo: {} #-}`, "in.mlir:1:5: error: unknown key 'foo' in file metadata dictionary"},
		{"deep regions", deep(`"a.b"() ({`, `}) : () -> ()`, 100000), "in.mlir:1:50001: error: nesting depth exceeds the limit of 10000"},
		{"deep arrays", `"foo.op"() {a = ` + deep("[", "]", 100000) + `} : () -> ()`, "in.mlir:1:10016: error: nesting depth exceeds the limit of 10000"},
		{"deep types", `"foo.op"() : () -> ` + deep("tuple<", ">", 100000), "in.mlir:1:60013: error: nesting depth exceeds the limit of 10000"},
		{"deep dialect type", `"foo.op"() : () -> !foo.x` + deep("<", ">", 100000), "in.mlir:1:10026: error: nesting depth exceeds the limit of 10000"},
		{"unbalanced dialect type", `"foo.op"() : () -> !foo.x<(]>`, "in.mlir:1:26: error: unbalanced '(' character in pretty dialect name"},
		{"block name in named-arg region", "func.func @f(%a: i32) {\n^bb0(%b: i32):\n return }", "in.mlir:2:1: error: invalid block name in region with named arguments"},
		{"region argument in use", `func.func @f(%a: i32, %a: i32) { return }`, "in.mlir:1:23: error: region entry argument '%a' is already in use"},
		{"naming an op without results", `func.func @f() { %0 = func.call @f() : () -> () return }`, "in.mlir:1:18: error: cannot name an operation with no results"},
		{"float literal of integer type", `"foo.c"() {a = 1.0 : i32} : () -> ()`, "in.mlir:1:25: error: floating point value not valid for specified type"},
		{"removed opaque elements attribute", `"foo.c"() {s = opaque<"x", "0xDEAD"> : tensor<2xi32>} : () -> ()`, "in.mlir:1:15: error: expected attribute value"},
		{"entry block with a predecessor", `func.func @f() { ^bb0: "foo.br"() [^bb0] : () -> () }`, "in.mlir:1:1: error: entry block of region may not have predecessors"},
		{"inferred function attribute", `func.func @f() attributes {function_type = () -> ()} { return }`, "in.mlir:1:16: error: custom op 'func.func' 'function_type' is an inferred attribute and should not be specified in the explicit attribute dictionary"},
		{"unclosed result type list", `"foo.x"() : () -> (i32` + "\n", "in.mlir:1:23: error: expected ')'"},
		{"block argument that does not dominate", "\"foo.r\"() ({\n^bb0:\n  \"foo.br\"(%c)[^bb1] : (i32) -> ()\n^bb1(%c: i32):\n  \"foo.t\"() : () -> ()\n}) : () -> ()", "in.mlir:3:3: error: operand #0 does not dominate this use"},
		{"memory space of a builtin kind MLIR rejects", `"foo.x"() : () -> (memref<2xf32, unit>)`, "in.mlir:1:20: error: unsupported memory space Attribute"},
		{"memref of an unknown dialect's type", `"foo.x"() : () -> (memref<2x!foo.t>)`, "in.mlir:1:29: error: invalid memref element type"},
		{"second memory space", `"foo.x"() : () -> (memref<2xf32, 1, 2>)`, "in.mlir:1:38: error: multiple memory spaces specified in memref type"},
		{"result number out of range", "%a, %b = \"foo.x\"() : () -> (i32, i32)\n\"foo.y\"(%b#1) : (i32) -> ()", "in.mlir:2:9: error: reference to invalid result number"},
		{"inferred visibility", `func.func @f() attributes {sym_visibility = "private"} { return }`, "in.mlir:1:16: error: custom op 'func.func' 'sym_visibility' is an inferred attribute and should not be specified in the explicit attribute dictionary"},
	}
	if len(tests) < 50 {
		t.Fatalf("only %d cases", len(tests))
	}
	if dir := os.Getenv("RLX_DUMP_INVALID"); dir != "" {
		// Writes the inputs so they can be compared with mlir-opt.
		for i, tc := range tests {
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%02d.mlir", i)), []byte(tc.src), 0o644)
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := parseAndVerify(tc.src)
			if err == nil {
				t.Fatalf("no error for %q", trim(tc.src))
			}
			got := strings.SplitN(err.Error(), "\n", 2)[0]
			if got != tc.want {
				t.Errorf("input %q\n got: %s\nwant: %s", trim(tc.src), got, tc.want)
			}
		})
	}
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// The end of a scope reports every unresolved forward reference, in
// source order: the error text holds each, and ErrorDiagnostics makes one
// diagnostic of each.
func TestUnresolvedForwardReferencesAll(t *testing.T) {
	src := "\"foo.op\"(%b, %a#3) : (i32, i32) -> ()\n\"foo.op\"(%c) : (i32) -> ()\n%a:2 = \"foo.op\"() : () -> (i32, i32)"
	err := parseAndVerify(src)
	want := []string{"in.mlir:1:10: error: use of undeclared SSA value name", "in.mlir:1:14: error: use of undeclared SSA value name", "in.mlir:2:10: error: use of undeclared SSA value name"}
	var got []string
	for _, line := range strings.Split(fmt.Sprint(err), "\n") {
		if strings.Contains(line, ": error: ") {
			got = append(got, line)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ctx := ir.NewContext()
	ds := asm.ErrorDiagnostics(ctx, err)
	if len(ds) != len(want) {
		t.Fatalf("%d diagnostics, want %d", len(ds), len(want))
	}
	for i, d := range ds {
		if line := ir.FormatLoc(d.Loc) + ": error: " + d.Message; line != want[i] {
			t.Errorf("diagnostic %d: %s, want %s", i, line, want[i])
		}
	}
}

// TestDeepNestingMLIROptAccepts checks that the nesting limit is not below
// what mlir-opt 19 reads: 2,000 nested region ops (it overflows its stack
// at 2,500), 6,000 nested arrays (8,000 crash it), and nested tuples
// (2,000 here: types are uniqued by their text, so deep tuples cost
// quadratic time; mlir-opt reads 8,000).
func TestDeepNestingMLIROptAccepts(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	for name, src := range map[string]string{
		"regions": deep(`"a.b"() ({`, `}) : () -> ()`, 2000),
		"arrays":  `"foo.op"() {a = ` + deep("[", "]", 6000) + `} : () -> ()`,
		"tuples":  `"foo.op"() : () -> ` + deep("tuple<", ">", 2000),
	} {
		if err := parseAndVerify(src); err != nil {
			msg, _, _ := strings.Cut(err.Error(), "\n")
			t.Errorf("%s: %s", name, msg)
		}
	}
}
