// Package conditioning says which results of a function the reference
// interpreter's own rounding leaves undecided: those that a perturbation
// of the inputs, weights and constants by a few units in the last place moves
// beyond the function's NMSE limit. A kernel's result that differs from
// the interpreter's by more than the limit is a bug where the result is
// well-conditioned, and says nothing where it is not (cos of a product
// near 10⁶, a power whose exponent's last bit decides between an odd
// integer and a half).
//
// The GPU check's random suite (bench/gpu/suite) marks such results
// instead of judging them; the sim backend's random test
// (runtime/backend/sim) checks the functions with such results op by op
// and fails the others.
package conditioning
