package pipeline_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// Tables of docs/*.md that a test measures and compares.
//
// A doc may show a table once for every Go version: net/http's own resends change
// between versions. The table a test compares is the one with the measured table's
// header row whose caption (the line just above it) names this Go version as
// "Go 1.NN"; a failure lists only the cells that differ, and the Go version.

// goMinor is the running Go's version as the docs name it: "Go 1.26".
func goMinor() string {
	v := strings.TrimPrefix(runtime.Version(), "go")
	if parts := strings.SplitN(v, ".", 3); len(parts) >= 2 {
		v = parts[0] + "." + parts[1]
	}
	return "Go " + v
}

// assertDocTable fails unless the doc at path shows measured (a markdown table) under
// a caption that names the running Go version.
func assertDocTable(t *testing.T, path, measured string) {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	want := parseTable(measured)
	shown, ok := findTable(string(doc), want[0], goMinor())
	if !ok {
		t.Errorf("%s has no table with this header captioned %q (measured on %s); add it from this test's -v output", path, goMinor(), runtime.Version())
		return
	}
	if diff := tableDiff(shown, want); diff != "" {
		t.Errorf("%s differs from what was measured on %s (update it from this test's -v output):\n%s", path, runtime.Version(), diff)
	}
}

// findTable returns the table of doc with the given header row whose caption
// contains goVersion.
func findTable(doc string, header []string, goVersion string) ([][]string, bool) {
	lines := strings.Split(doc, "\n")
	caption := ""
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "|") {
			if strings.TrimSpace(lines[i]) != "" {
				caption = lines[i]
			}
			continue
		}
		start := i
		for i < len(lines) && strings.HasPrefix(lines[i], "|") {
			i++
		}
		table := parseTable(strings.Join(lines[start:i], "\n"))
		if strings.Contains(caption, goVersion) && equalRows(table[0], header) {
			return table, true
		}
	}
	return nil, false
}

// parseTable splits a markdown table into rows of trimmed cells, without its
// separator row.
func parseTable(s string) [][]string {
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return rows
}

// tableDiff lists the cells in which shown and measured differ, a line each:
// "row / column: doc says X, measured Y"; "" when they agree.
func tableDiff(shown, measured [][]string) string {
	var b strings.Builder
	header := measured[0]
	for r := 1; r < max(len(shown), len(measured)); r++ {
		switch {
		case r >= len(shown):
			fmt.Fprintf(&b, "row %q: missing from the doc\n", measured[r][0])
			continue
		case r >= len(measured):
			fmt.Fprintf(&b, "row %q: in the doc, not measured\n", shown[r][0])
			continue
		}
		for c := range max(len(shown[r]), len(measured[r])) {
			doc, got := cell(shown[r], c), cell(measured[r], c)
			if doc != got {
				fmt.Fprintf(&b, "%s / %s: doc says %q, measured %q\n", cell(measured[r], 0), cell(header, c), doc, got)
			}
		}
	}
	return b.String()
}

func cell(row []string, i int) string {
	if i < len(row) {
		return row[i]
	}
	return "(none)"
}

func equalRows(a, b []string) bool {
	return strings.Join(a, "|") == strings.Join(b, "|")
}

func TestADocTableFailureNamesOnlyTheDifferingCells(t *testing.T) {
	doc := "Measured on Go 1.26.8:\n\n| endpoint | a | b |\n|---|---|---|\n| X | ok (1) | ok (2) |\n"
	measured := "| endpoint | a | b |\n|---|---|---|\n| X | ok (1) | error (3) |\n"
	shown, ok := findTable(doc, parseTable(measured)[0], "Go 1.26")
	if !ok {
		t.Fatal("the table captioned Go 1.26 was not found")
	}
	if got, want := tableDiff(shown, parseTable(measured)), "X / b: doc says \"ok (2)\", measured \"error (3)\"\n"; got != want {
		t.Errorf("tableDiff = %q, want %q", got, want)
	}
	if _, ok := findTable(doc, parseTable(measured)[0], "Go 1.27"); ok {
		t.Error("a table captioned for Go 1.26 was taken for Go 1.27")
	}
}
