package llvmir

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/runtime/plan"
)

// Header returns the C header that declares what the host module of p
// defines, for the app that links it (docs/apps.md).
func Header(p *plan.Plan) string {
	f := "rlx_" + CName(p.Function) + "_"
	guard := strings.ToUpper(f) + "H"
	var b strings.Builder
	fmt.Fprintf(&b, "/* %s.h: the host module of @%s (rlx-translate --mlir-to-llvmir). */\n", strings.TrimSuffix(f, "_"), p.Function)
	fmt.Fprintf(&b, "#ifndef %s\n#define %s\n\n#include \"rlx_runtime.h\"\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", guard, guard)
	b.WriteString("/* Creates the context (library: MSL source, a .metallib path, or NULL for\n * the app's default library), the pipelines and the MPS executables; *out\n * is set even on failure, for rlx_error. Returns 0 on success. */\n")
	fmt.Fprintf(&b, "int %screate(const char *library, rlx_context **out);\n", f)
	b.WriteString("/* Fills the weight buffer: every weight through load, by name. */\n")
	fmt.Fprintf(&b, "int %sbind_weights(rlx_context *ctx, rlx_weight_loader load, void *user);\n", f)
	b.WriteString("/* Runs the plan once: write the inputs into rlx_arena(ctx) first, read the\n * outputs after. One wait, at the end. */\n")
	fmt.Fprintf(&b, "int %srun(rlx_context *ctx);\n\n", f)
	b.WriteString("/* The function's arguments and results: name, type and slot in the arena. */\n")
	fmt.Fprintf(&b, "extern const rlx_tensor %sinputs[%d];\nextern const uint32_t %snum_inputs;\n", f, len(p.Inputs), f)
	fmt.Fprintf(&b, "extern const rlx_tensor %soutputs[%d];\nextern const uint32_t %snum_outputs;\n", f, len(p.Outputs), f)
	fmt.Fprintf(&b, "extern const uint64_t %sarena_bytes, %sweight_bytes;\n", f, f)
	fmt.Fprintf(&b, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n")
	return b.String()
}
