// Package reference is the runtime's reference backend ("ref"): it runs
// every step of a plan through the reference interpreter, but reads every
// step's inputs from, and writes its results to, their slots in one arena
// of bytes, and reads every weight from the plan's weight buffer. So it
// computes the interpreter's bits exactly when the plan is right, and an
// aliasing bug in a plan (a slot reused while its value is live, a result
// read from the wrong offset) changes its results, as it would on a GPU.
// The arena is poisoned (0xff, NaN) before each run, so a step reading a
// slot nothing wrote reads NaN, not an old value.
package reference
