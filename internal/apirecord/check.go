package apirecord

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// record is the test flag that writes the records instead of checking them:
// go test -run TestAPI -args -record.
var record = flag.Bool("record", false, "write the API records from the current API instead of checking them (a record that exists may only grow)")

// Record names a package and the file that records its API.
type Record struct {
	Package string // import path
	File    string // one line per name, as Lines writes them
}

// Check fails t once for each recorded line the current API lacks, naming it: "insurance:
// removed or changed since 1.0.0: func NewClient(string, ...Option) (*Client, error)".
// It loads the packages with one run of the go command, in dir.
//
// With -record it writes each record from the current API instead: a new file, or one
// that gains the names added since; a record whose names are not all still there is
// left as it is, and t fails. Starting a record over is deleting its file.
func Check(t testing.TB, dir, since string, records ...Record) {
	t.Helper()
	paths := make([]string, len(records))
	for i, r := range records {
		paths[i] = r.Package
	}
	apis, err := Load(dir, paths...)
	if err != nil {
		t.Fatal(err)
	}
	check(t, since, *record, apis, records)
}

// check is Check once the packages are loaded: apis[i] is the API of records[i].
func check(t testing.TB, since string, record bool, apis []API, records []Record) {
	t.Helper()
	for i, api := range apis {
		file := records[i].File
		recorded, err := ReadRecord(file)
		if err != nil && !(record && errors.Is(err, fs.ErrNotExist)) {
			t.Errorf("%s: %v (go test -run TestAPI -args -record writes it)", api.Name, err)
			continue
		}
		breaks := Missing(recorded, api.Lines)
		for _, b := range breaks {
			t.Errorf("%s: removed or changed since %s: %s", api.Name, since, b)
		}
		added := len(Missing(api.Lines, recorded))
		switch {
		case !record:
			if added > 0 {
				t.Logf("%s: additions not yet in %s: %d (-record adds them)", api.Name, file, added)
			}
		case len(breaks) > 0:
			t.Errorf("%s: %s left as it is: a record only grows (delete it to start over)", api.Name, file)
		default:
			if err := WriteRecord(file, api); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: wrote %s: %d lines, %d new", api.Name, file, len(api.Lines), added)
		}
	}
}

// ReadRecord reads the lines of a record, leaving out blank lines and # comments.
func ReadRecord(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	return lines, nil
}

// WriteRecord writes api's lines to file, under a comment that says what they are.
func WriteRecord(file string, api API) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# The exported API of %s, one line per name: see RELEASING.md, \"The compatibility promise\".\n", api.Path)
	b.WriteString("# Written by go test -run TestAPI -args -record; within a major version lines are only added.\n")
	for _, l := range api.Lines {
		b.WriteString(l + "\n")
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}
