package pipeline

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// StatsDisplay selects the layout of the statistics report.
type StatsDisplay string

const (
	// StatsPipeline shows statistics per pass in pipeline order, nested
	// like the pipeline (the default).
	StatsPipeline StatsDisplay = "pipeline"
	// StatsList merges the statistics of all instances of a pass.
	StatsList StatsDisplay = "list"
)

type statEntry struct {
	name  string
	stats []statValue
}

type statValue struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
	Help  string `json:"description"`
}

// ReportStatistics writes the statistics of every pass of pm, in
// mlir-opt's layout or, with asJSON, as a JSON document. Statistics are
// always collected, in every build.
func ReportStatistics(w io.Writer, pm *OpPassManager, display StatsDisplay, asJSON bool) error {
	if asJSON {
		return statsJSON(w, pm, display)
	}
	var sb strings.Builder
	sb.WriteString(reportBanner("... Pass statistics report ..."))
	if display == StatsList {
		for _, e := range statsList(pm) {
			printStatEntry(&sb, 0, e.name, e.stats)
		}
	} else {
		var walk func(pm *OpPassManager, indent int)
		walk = func(pm *OpPassManager, indent int) {
			for _, p := range pm.passes {
				if a, ok := p.(*adaptor); ok {
					for _, m := range a.mgrs {
						fmt.Fprintf(&sb, "%s'%s' Pipeline\n", strings.Repeat(" ", indent), m.anchor)
						walk(m, indent+2)
					}
					continue
				}
				printStatEntry(&sb, indent, p.Info().DisplayName(), passStats(p))
			}
		}
		walk(pm, 0)
	}
	sb.WriteString("\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

func passStats(p Pass) []statValue {
	var out []statValue
	for _, s := range Describe(p).Statistics() {
		out = append(out, statValue{Name: s.Name, Value: s.Stat.Value(), Help: s.Help})
	}
	return out
}

func printStatEntry(sb *strings.Builder, indent int, name string, stats []statValue) {
	pad := strings.Repeat(" ", indent)
	sb.WriteString(pad + name + "\n")
	nameW, valW := 0, 0
	for _, s := range stats {
		nameW = max(nameW, len(s.Name))
		valW = max(valW, len(fmt.Sprint(s.Value)))
	}
	for _, s := range stats {
		fmt.Fprintf(sb, "%s  (S) %*d %-*s - %s\n", pad, valW, s.Value, nameW, s.Name, s.Help)
	}
}

// statsList merges statistics by pass name, sorted by name.
func statsList(pm *OpPassManager) []statEntry {
	byName := map[string]*statEntry{}
	var walk func(pm *OpPassManager)
	walk = func(pm *OpPassManager) {
		for _, p := range pm.passes {
			if a, ok := p.(*adaptor); ok {
				for _, m := range a.mgrs {
					walk(m)
				}
				continue
			}
			name := p.Info().DisplayName()
			e := byName[name]
			if e == nil {
				e = &statEntry{name: name}
				byName[name] = e
			}
		stats:
			for _, s := range passStats(p) {
				for i := range e.stats {
					if e.stats[i].Name == s.Name {
						e.stats[i].Value = ir.SaturatingAdd(e.stats[i].Value, s.Value)
						continue stats
					}
				}
				e.stats = append(e.stats, s)
			}
		}
	}
	walk(pm)
	out := make([]statEntry, 0, len(byName))
	for _, e := range byName {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

type statsJSONPass struct {
	Pass       string          `json:"pass,omitempty"`
	Argument   string          `json:"argument,omitempty"`
	Pipeline   string          `json:"pipeline,omitempty"`
	Statistics []statValue     `json:"statistics,omitempty"`
	Passes     []statsJSONPass `json:"passes,omitempty"`
}

func statsJSON(w io.Writer, pm *OpPassManager, display StatsDisplay) error {
	var doc any
	if display == StatsList {
		var list []statsJSONPass
		for _, e := range statsList(pm) {
			list = append(list, statsJSONPass{Pass: e.name, Statistics: e.stats})
		}
		doc = list
	} else {
		var walk func(pm *OpPassManager) []statsJSONPass
		walk = func(pm *OpPassManager) []statsJSONPass {
			out := []statsJSONPass{}
			for _, p := range pm.passes {
				if a, ok := p.(*adaptor); ok {
					for _, m := range a.mgrs {
						out = append(out, statsJSONPass{Pipeline: m.anchor, Passes: walk(m)})
					}
					continue
				}
				out = append(out, statsJSONPass{Pass: p.Info().DisplayName(), Argument: p.Info().Argument, Statistics: passStats(p)})
			}
			return out
		}
		doc = statsJSONPass{Pipeline: pm.anchor, Passes: walk(pm)}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
