// Command peerbench prints the tables of docs/performance.md that compare the SDK
// with its peers. It reads the interleaved benchmark rounds run.sh recorded, then
// measures, itself, the connections and the per-call latency of many goroutines
// sharing one client. Run it through run.sh:
//
//	bench/run.sh            # 15 rounds
//	bench/run.sh 21         # 21 rounds
//
// or on a rounds file kept from an earlier run:
//
//	go run ./cmd/peerbench -rounds /tmp/peers-rounds.txt
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/partnerinsure/insurance-go/bench"
)

func main() {
	roundsFile := flag.String("rounds", "", "the rounds file run.sh wrote (required)")
	repeat := flag.Int("repeat", 3, "how many times each connection and latency measurement runs (the tables show medians)")
	calls := flag.Int("calls", 6400, "calls from 64 goroutines for the connection counts")
	growthCalls := flag.Int("growth-calls", 25600, "calls at each goroutine count of the growth table (a multiple of 256)")
	flag.Parse()
	if err := run(os.Stdout, *roundsFile, *repeat, *calls, *growthCalls); err != nil {
		fmt.Fprintln(os.Stderr, "peerbench:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, roundsFile string, repeat, calls, growthCalls int) error {
	if roundsFile == "" {
		return fmt.Errorf("-rounds is required: run bench/run.sh")
	}
	if repeat < 1 {
		return fmt.Errorf("-repeat %d: want at least 1", repeat)
	}
	f, err := os.Open(roundsFile)
	if err != nil {
		return err
	}
	rs, err := parseRounds(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", roundsFile, err)
	}

	fmt.Fprintf(w, "Run %s: %s %s/%s, GOMAXPROCS %d, cpu: %s.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), runtime.Version(), runtime.GOOS, runtime.GOARCH,
		runtime.GOMAXPROCS(0), rs.cpu)

	peers, err := measureAll(bench.Impls(), 64, calls, repeat)
	if err != nil {
		return err
	}
	if err := printPeers(w, rs, peers, calls); err != nil {
		return err
	}

	impls := []bench.Impl{implNamed("sdk"), implNamed("hand")}
	var growth [][]measured
	for _, g := range []int{1, 8, 64, 256} {
		row, err := measureAll(impls, g, growthCalls, repeat)
		if err != nil {
			return err
		}
		growth = append(growth, row)
	}
	printGrowth(w, impls, growth, growthCalls, repeat)
	return nil
}

// measured is an implementation's figures at one goroutine count, each a spread over
// the repeats.
type measured struct {
	connections, p50, p99 spread
}

// measureAll measures every impl repeat times at goroutines, rotating which goes
// first from one repeat to the next.
func measureAll(impls []bench.Impl, goroutines, calls, repeat int) ([]measured, error) {
	conns := make([][]float64, len(impls))
	p50s := make([][]float64, len(impls))
	p99s := make([][]float64, len(impls))
	for r := range repeat {
		for k := range impls {
			i := (k + r) % len(impls)
			load, err := bench.Measure(impls[i], goroutines, calls)
			if err != nil {
				return nil, err
			}
			conns[i] = append(conns[i], float64(load.Connections))
			p50s[i] = append(p50s[i], float64(load.P50))
			p99s[i] = append(p99s[i], float64(load.P99))
		}
	}
	out := make([]measured, len(impls))
	for i := range impls {
		out[i] = measured{connections: spreadOf(conns[i]), p50: spreadOf(p50s[i]), p99: spreadOf(p99s[i])}
	}
	return out, nil
}

func printPeers(w io.Writer, rs rounds, peers []measured, calls int) error {
	impls := bench.Impls()
	baseline := impls[0].Name
	fmt.Fprintf(w, "### What a partner would pick instead\n\n")
	fmt.Fprintf(w, "%d interleaved rounds of %d calls per benchmark; time ratio: median of the per-round ratios to %s (min-max); "+
		"allocs/op: median, and its ratio to %s; connections and latency: %s calls from 64 goroutines sharing one new client, median (min-max) of the repeats.\n\n",
		roundCount(rs), rs.results[0].iterations, baseline, baseline, thousands(calls))
	fmt.Fprintf(w, "| implementation | time ratio serial | time ratio 64 goroutines | allocs/op serial (ratio) | allocs/op 64 goroutines (ratio) | connections for %s calls from 64 goroutines | p50 / p99 per call, 64 goroutines |\n", thousands(calls))
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|\n")
	var detail []string
	for i, impl := range impls {
		cells := []string{impl.Name}
		var allocCells []string
		for _, mode := range []string{"serial", "parallel"} {
			s, err := rs.summarize(impl.Name, baseline, mode)
			if err != nil {
				return err
			}
			b, err := rs.summarize(baseline, baseline, mode)
			if err != nil {
				return err
			}
			cells = append(cells, fmt.Sprintf("%.3f (%.2f-%.2f)", s.timeRatio.median, s.timeRatio.min, s.timeRatio.max))
			allocCells = append(allocCells, fmt.Sprintf("%.0f (%.3f)", s.allocs, s.allocs/b.allocs))
			detail = append(detail, fmt.Sprintf("| %s | %s | %s | %s | %.0f |", impl.Name, mode,
				thousands(int(s.nsPerOp)), thousands(int(s.bytesPerOp)), s.allocs))
		}
		cells = append(cells, allocCells...)
		cells = append(cells, spreadCell(peers[i].connections, func(v float64) string { return thousands(int(v)) }),
			duration(peers[i].p50.median)+" / "+duration(peers[i].p99.median))
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	fmt.Fprintf(w, "\nMedians over the rounds (absolute times on shared cores mean little; compare within a column):\n\n")
	fmt.Fprintf(w, "| implementation | mode | ns/op | B/op | allocs/op |\n|---|---|---|---|---|\n")
	for _, line := range detail {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w)
	return nil
}

func printGrowth(w io.Writer, impls []bench.Impl, growth [][]measured, calls, repeat int) {
	fmt.Fprintf(w, "### How cost grows\n\n")
	fmt.Fprintf(w, "%s calls at each goroutine count, all goroutines sharing one new client (nothing warmed up); "+
		"latency measured around each call; median (min-max) of %d repeats.\n\n", thousands(calls), repeat)
	header, rule := "| goroutines", "|---"
	for _, impl := range impls {
		header += fmt.Sprintf(" | %s connections | %s p50 | %s p99", impl.Name, impl.Name, impl.Name)
		rule += "|---|---|---"
	}
	fmt.Fprintf(w, "%s |\n%s|\n", header, rule)
	for i, g := range []int{1, 8, 64, 256} {
		line := fmt.Sprintf("| %d", g)
		for _, m := range growth[i] {
			line += " | " + spreadCell(m.connections, func(v float64) string { return thousands(int(v)) })
			line += " | " + durationCell(m.p50) + " | " + durationCell(m.p99)
		}
		fmt.Fprintln(w, line+" |")
	}
	fmt.Fprintln(w)
}

func implNamed(name string) bench.Impl {
	i := slices.IndexFunc(bench.Impls(), func(impl bench.Impl) bool { return impl.Name == name })
	return bench.Impls()[i]
}

func roundCount(rs rounds) int {
	seen := map[int]bool{}
	for _, r := range rs.results {
		seen[r.round] = true
	}
	return len(seen)
}

// spreadCell prints "median (min-max)", or the median alone when all repeats agree.
func spreadCell(s spread, format func(float64) string) string {
	if s.min == s.max {
		return format(s.median)
	}
	return fmt.Sprintf("%s (%s-%s)", format(s.median), format(s.min), format(s.max))
}

// durationCell is spreadCell for latencies, naming the unit once when all three
// values share it: "2.37 ms (1.99-6.61)".
func durationCell(s spread) string {
	ms := func(v float64) bool { return time.Duration(v) >= time.Millisecond }
	switch {
	case s.min == s.max:
		return duration(s.median)
	case ms(s.min) == ms(s.max):
		unit, scale, digits := "µs", float64(time.Microsecond), 0
		if ms(s.min) {
			unit, scale, digits = "ms", float64(time.Millisecond), 2
		}
		return fmt.Sprintf("%.*f %s (%.*f-%.*f)", digits, s.median/scale, unit, digits, s.min/scale, digits, s.max/scale)
	default:
		return fmt.Sprintf("%s (%s-%s)", duration(s.median), duration(s.min), duration(s.max))
	}
}

// duration prints nanoseconds as µs below a millisecond and as ms above.
func duration(ns float64) string {
	d := time.Duration(ns)
	if d < time.Millisecond {
		return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
	}
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}

// thousands prints n with commas: 6400 -> "6,400".
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
