# A suite of edge cases, many failing on purpose, on which rlx's lit and
# LLVM's lit must give the same verdicts (see lit/parity_test.go).
import lit.formats

config.name = "parity"
config.test_format = lit.formats.ShTest()
config.suffixes = [".test"]
config.available_features.add("feat")
config.available_features.add("other-feat")

# rlx-lit: llvm-lit only below
import os

llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-19/bin")
config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment["PATH"]])
if lit_config.params.get("exec_root"):
    config.test_exec_root = lit_config.params["exec_root"]
