// pprofcheck: reads pprof profiles with Google's own parser (github.com/google/pprof's
// profile package, Debian's golang-github-google-pprof-dev) and prints what it read as
// JSON, one document per file, for tests/pprof.sh to compare with ev2hp's other outputs.
//
// Each profile is parsed (gzipped or not, as pprof reads it) and checked with
// CheckValid; a file that fails either is an error (status 1). Built by the test, offline:
// GO111MODULE=off GOPATH=/usr/share/gocode go build pprofcheck.go.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/google/pprof/profile"
)

type frame struct {
	Name      string `json:"name"`
	File      string `json:"file"`
	Line      int64  `json:"line"`
	StartLine int64  `json:"start_line"`
}

type sample struct {
	Values []int64             `json:"values"`
	Labels map[string][]string `json:"labels"`
	Frames []frame             `json:"frames"` // leaf first
}

type summary struct {
	SampleTypes   [][2]string `json:"sample_types"`
	PeriodType    [2]string   `json:"period_type"`
	Period        int64       `json:"period"`
	TimeNanos     int64       `json:"time_nanos"`
	DurationNanos int64       `json:"duration_nanos"`
	Comments      []string    `json:"comments"`
	Samples       []sample    `json:"samples"`
}

func read(path string) (*summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, err
	}
	if err := p.CheckValid(); err != nil {
		return nil, err
	}
	s := &summary{Period: p.Period, TimeNanos: p.TimeNanos, DurationNanos: p.DurationNanos,
		Comments: p.Comments, Samples: []sample{}}
	for _, t := range p.SampleType {
		s.SampleTypes = append(s.SampleTypes, [2]string{t.Type, t.Unit})
	}
	if p.PeriodType != nil {
		s.PeriodType = [2]string{p.PeriodType.Type, p.PeriodType.Unit}
	}
	for _, x := range p.Sample {
		out := sample{Values: x.Value, Labels: x.Label, Frames: []frame{}}
		for _, loc := range x.Location {
			for _, l := range loc.Line {
				out.Frames = append(out.Frames, frame{l.Function.Name, l.Function.Filename,
					l.Line, l.Function.StartLine})
			}
		}
		s.Samples = append(s.Samples, out)
	}
	return s, nil
}

func main() {
	status := 0
	for _, path := range os.Args[1:] {
		s, err := read(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "pprofcheck: %s: %v\n", path, err)
			status = 1
			continue
		}
		out, _ := json.Marshal(s)
		fmt.Println(string(out))
	}
	os.Exit(status)
}
