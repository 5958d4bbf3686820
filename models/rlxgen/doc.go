// Package rlxgen is the rlx-gen command: it prints one of the model
// graphs of package models as MLIR and can write matching random weights
// and inputs. tools/rlx-gen is a thin main around Main. See docs/models.md.
package rlxgen
