package optdriver

import "github.com/rlx-compiler/rlx/pipeline/testpass"

// testConfig is rlx-opt's configuration with the test passes, as the lit
// suite builds rlx-opt (-tags rlxtest).
func testConfig() Config {
	cfg := DefaultConfig()
	cfg.Passes = append(cfg.Passes, testpass.All()...)
	return cfg
}
