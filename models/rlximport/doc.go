// Package rlximport is the rlx-import command: it imports a Hugging Face
// checkpoint directory or a GGUF file with package importer and prints
// the decode step as MLIR. tools/rlx-import is a thin main around Main.
// See docs/import.md.
package rlximport
