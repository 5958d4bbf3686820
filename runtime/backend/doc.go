// Package backend is what the runtime's backends share: Compile, which
// turns a split module into a plan with the code it runs (the MSL kernels
// and their manifest from codegen/metal, the split function as the
// reference interpreter runs it), the Backend interface, and Runner, the
// host side of a run that every backend executing on this machine uses:
// it writes the inputs into their arena slots, walks the plan's command
// stream (plan.Commands), hands each step to the backend's Machine,
// checks guards and status words, and reads the outputs back from their
// slots.
//
// The backends live beside it: runtime/backend/reference runs every step
// through the reference interpreter over the arena's bytes,
// runtime/backend/sim runs Metal steps through the emitted kernels
// compiled for the CPU (codegen/metal/mslcpu) and MPS steps through the
// interpreter of the mps primitives, and runtime/backend/metal runs the
// plan on a Mac through Metal and MPSGraph. All of them run the same
// plan, so they can be compared step for step.
package backend
