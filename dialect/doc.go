// Package dialect registers every dialect rlx knows with a context.
package dialect
