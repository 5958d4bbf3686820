package metal

// RegionTraffic is the device-memory traffic of one region's dispatches,
// under the model of docs/codegen-metal.md#traffic: a dispatch moves each
// buffer it binds once (reads from its read bindings, writes to its write
// bindings), whatever its threadgroups re-read from caches.
type RegionTraffic struct {
	Function, Symbol string
	Dispatches       int
	Read, Written    int64
	// Weights is the bytes of the region's weights and constants; Min is
	// the least any implementation moves: every weight and operand byte
	// read once, every result byte written once.
	Weights, Min int64
}

// Traffic returns the traffic of every region of the manifest.
func (m *Manifest) Traffic() []RegionTraffic {
	kernels := make(map[string]*KernelInfo, len(m.Kernels))
	for _, k := range m.Kernels {
		kernels[k.Name] = k
	}
	out := make([]RegionTraffic, 0, len(m.Regions))
	for _, r := range m.Regions {
		t := RegionTraffic{Function: r.Function, Symbol: r.Symbol, Dispatches: len(r.Dispatches)}
		for _, d := range r.Dispatches {
			k := kernels[d.Kernel]
			t.Read += k.Reads
			t.Written += k.Writes
		}
		for _, b := range r.Buffers {
			switch b.Role {
			case RoleParam, RoleConstant:
				t.Weights += b.Bytes
				t.Min += b.Bytes
			case RoleInput, RoleOutput:
				t.Min += b.Bytes
			}
		}
		out = append(out, t)
	}
	return out
}
