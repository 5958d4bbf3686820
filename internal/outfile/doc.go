// Package outfile writes a tool's output files so that a failing run
// never leaves a lost, truncated or half-written file: what LLVM's
// ToolOutputFile intends. A File is written to a temporary file beside
// its target and renamed over the target only by Commit, so the old
// content (which may be the tool's own input, memory-mapped) stays intact
// until the new one is complete; Discard, or a run that never commits,
// leaves the target as it was. A symbolic link is followed: the file it
// names is replaced and the link stays. A target that is not a regular
// file (/dev/null, /dev/stdout, a pipe) is written in place, as there is
// nothing to protect and rename would replace the device node.
package outfile
