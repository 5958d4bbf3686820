// Package bundle writes everything an app needs to run a split function
// without Go (rlx-compile; docs/apps.md): the Metal kernels
// (kernels.metal, and their manifest), the MPSGraph builders
// (<f>_builders.m and .h, when the plan has MPS steps), the host module
// (host.ll) and its header (rlx_<f>.h), the C runtime ABI (rlx_runtime.h)
// and its Metal implementation (rlx_runtime_metal.m), and, for tools and
// people, the plan (plan.json) and the weights' layout (weights.json).
package bundle
