package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// result is one benchmark line of one round.
type result struct {
	round       int
	impl, mode  string // as in BenchmarkPeers/<impl>/<mode>
	iterations  int
	nsPerOp     float64
	bytesPerOp  float64
	allocsPerOp float64
}

// rounds is what run.sh recorded: every result, and the cpu the test binary named.
type rounds struct {
	results []result
	cpu     string
}

// parseRounds reads run.sh's file: each line is a round number followed by a line the
// test binary printed. It keeps the BenchmarkPeers lines and the "cpu:" line.
func parseRounds(r io.Reader) (rounds, error) {
	var out rounds
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		roundText, rest, _ := strings.Cut(sc.Text(), " ")
		round, err := strconv.Atoi(roundText)
		if err != nil {
			return rounds{}, fmt.Errorf("line %d: want a round number first", line)
		}
		if cpu, ok := strings.CutPrefix(rest, "cpu: "); ok {
			out.cpu = cpu
			continue
		}
		if !strings.HasPrefix(rest, "BenchmarkPeers/") {
			continue
		}
		res, err := parseResult(rest)
		if err != nil {
			return rounds{}, fmt.Errorf("line %d: %w", line, err)
		}
		res.round = round
		out.results = append(out.results, res)
	}
	if err := sc.Err(); err != nil {
		return rounds{}, err
	}
	if len(out.results) == 0 {
		return rounds{}, fmt.Errorf("no BenchmarkPeers results")
	}
	return out, nil
}

// parseResult reads "BenchmarkPeers/sdk/serial-2  4000  51205 ns/op  9516 B/op  121 allocs/op".
func parseResult(line string) (result, error) {
	f := strings.Fields(line)
	if len(f) != 8 || f[3] != "ns/op" || f[5] != "B/op" || f[7] != "allocs/op" {
		return result{}, fmt.Errorf("want name, iterations, ns/op, B/op and allocs/op (run with -benchmem): %q", line)
	}
	name := f[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		name = name[:i] // the GOMAXPROCS suffix
	}
	parts := strings.Split(name, "/")
	if len(parts) != 3 {
		return result{}, fmt.Errorf("want BenchmarkPeers/<impl>/<mode>: %q", f[0])
	}
	iterations, err := strconv.Atoi(f[1])
	if err != nil {
		return result{}, fmt.Errorf("%q: %w", line, err)
	}
	res := result{impl: parts[1], mode: parts[2], iterations: iterations}
	for i, dst := range []*float64{&res.nsPerOp, &res.bytesPerOp, &res.allocsPerOp} {
		v, err := strconv.ParseFloat(f[2+2*i], 64)
		if err != nil {
			return result{}, fmt.Errorf("%q: %w", line, err)
		}
		*dst = v
	}
	return res, nil
}

// of returns the results of one implementation in one mode, by round.
func (rs rounds) of(impl, mode string) map[int]result {
	out := map[int]result{}
	for _, r := range rs.results {
		if r.impl == impl && r.mode == mode {
			out[r.round] = r
		}
	}
	return out
}

// summary is an implementation's figures in one mode: medians over the rounds, and
// the per-round time ratios against the baseline.
type summary struct {
	rounds                      int
	nsPerOp, bytesPerOp, allocs float64
	timeRatio                   spread // of the per-round ratios impl/baseline
}

// spread is a median with the smallest and largest value.
type spread struct{ median, min, max float64 }

// summarize compares impl with baseline in mode, pairing the results round by round;
// a round missing either is left out of the ratios.
func (rs rounds) summarize(impl, baseline, mode string) (summary, error) {
	mine, base := rs.of(impl, mode), rs.of(baseline, mode)
	var ns, bytes, allocs, ratios []float64
	for round, r := range mine {
		ns = append(ns, r.nsPerOp)
		bytes = append(bytes, r.bytesPerOp)
		allocs = append(allocs, r.allocsPerOp)
		if b, ok := base[round]; ok {
			ratios = append(ratios, r.nsPerOp/b.nsPerOp)
		}
	}
	if len(ratios) == 0 {
		return summary{}, fmt.Errorf("no round has both %s and %s %s", impl, baseline, mode)
	}
	return summary{
		rounds:     len(ratios),
		nsPerOp:    spreadOf(ns).median,
		bytesPerOp: spreadOf(bytes).median,
		allocs:     spreadOf(allocs).median,
		timeRatio:  spreadOf(ratios),
	}, nil
}

// spreadOf returns the median (the mean of the two middle values for an even count),
// minimum and maximum of vs, which must not be empty.
func spreadOf(vs []float64) spread {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	median := s[n/2]
	if n%2 == 0 {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	return spread{median: median, min: s[0], max: s[n-1]}
}
