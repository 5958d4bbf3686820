# Configuration of rlx's lit suite. Two runners read this file:
#
#  - rlx's Go lit (go test ./lit-tests/, go run ./tools/lit lit-tests) reads
#    only the declarative statements above the "rlx-lit: llvm-lit only below"
#    line, and errors on anything there it does not understand;
#  - LLVM's lit runs the whole file as Python.
#
# See docs/lit.md for the subset and for how to run the suite both ways.

import os
import lit.formats

config.name = "rlx"
config.test_format = lit.formats.ShTest(execute_external=False)
config.test_source_root = os.path.dirname(__file__)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs"]

# Tools built from ./tools/... that RUN lines name; each name is replaced by
# its absolute path in the tools directory. "FileCheck" is an alias of
# "filecheck". not, count and split-file are built into our lit; under LLVM's
# lit they are LLVM's tools.
config.rlx_tools = ["rlx-opt", "rlx-run", "rlx-gen", "rlx-import", "rlx-translate", "rlx-compile", "filecheck"]

config.available_features.add("rlx")

# rlx-lit: llvm-lit only below
#
# Under LLVM's lit: rlx tools come from --param tools_dir=DIR (or
# $RLX_TOOLS_DIR); FileCheck/filecheck, not, count and split-file are LLVM's,
# from --param llvm_bin=DIR (default /usr/lib/llvm-19/bin).
import re
import tempfile

tools_dir = lit_config.params.get("tools_dir") or os.environ.get("RLX_TOOLS_DIR")
if not tools_dir:
    lit_config.fatal(
        "set the rlx tools directory: go build -tags rlxtest -o DIR ./tools/... and pass "
        "--param tools_dir=DIR (or set RLX_TOOLS_DIR)"
    )
tools_dir = os.path.abspath(tools_dir)
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-19/bin")
config.test_exec_root = lit_config.params.get("exec_root") or os.path.join(
    tempfile.gettempdir(), "rlx-lit-llvm", config.name
)


def tool_pattern(name):
    # The same word rule as LLVM's ToolSubst and as rlx's lit.
    return r"(?<![.\-^/\\<\w])" + re.escape(name) + r"(?![\w\-.])"


for tool in config.rlx_tools:
    if tool != "filecheck":
        config.substitutions.append((tool_pattern(tool), os.path.join(tools_dir, tool)))
for name in ("filecheck", "FileCheck"):
    config.substitutions.append((tool_pattern(name), os.path.join(llvm_bin, "FileCheck")))

config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, tools_dir, config.environment["PATH"]]
)

# "clang": clang++-19 is installed, so the tests of the sim backend (which
# compiles the emitted MSL as C++) run; rlx's lit gets the same feature
# from lit_test.go.
import shutil

if shutil.which("clang++-19"):
    config.available_features.add("clang")
