// Package apirecord records the exported API of Go packages, one line per name in the
// format of the Go distribution's api/ files (cmd/api), and checks a package against
// such a record: a recorded line that is gone is a name removed or whose type changed,
// which breaks code that uses it; a new line is an addition, which breaks nothing.
//
// It uses the standard library and the go command only: `go list -export` builds the
// packages' export data, go/importer reads it.
package apirecord

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/importer"
	"go/token"
	"io"
	"os"
	"os/exec"
	"strings"
)

// API is the exported API of one package.
type API struct {
	Path  string   // import path
	Name  string   // package name
	Lines []string // see Lines
}

// listed is what `go list -export -json` says of a package.
type listed struct {
	ImportPath string
	Name       string
	Export     string // the file holding the export data
	Error      *struct{ Err string }
}

// Load returns the exported API of each package named by paths, in that order. It
// runs the go command once, in dir (a directory of the module that holds or requires
// the packages), with GOWORK=off so that only that module's go.mod decides what is
// built.
func Load(dir string, paths ...string) ([]API, error) {
	if len(paths) == 0 {
		return nil, errors.New("apirecord: no package to load")
	}
	args := append([]string{"list", "-export", "-json=ImportPath,Name,Export,Error"}, paths...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("apirecord: go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	byPath, err := decodeList(out)
	if err != nil {
		return nil, err
	}
	apis := make([]API, 0, len(paths))
	for _, path := range paths {
		p, ok := byPath[path]
		if !ok {
			return nil, fmt.Errorf("apirecord: go list did not list %s", path)
		}
		// An importer of its own for each package: one that has seen the package only
		// as another's dependency could hand back that partial view.
		imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
			if q, ok := byPath[path]; ok {
				return os.Open(q.Export)
			}
			return nil, fmt.Errorf("apirecord: no export data for %s", path)
		})
		pkg, err := imp.Import(path)
		if err != nil {
			return nil, fmt.Errorf("apirecord: reading the export data of %s: %w", path, err)
		}
		apis = append(apis, API{Path: path, Name: p.Name, Lines: Lines(pkg)})
	}
	return apis, nil
}

// decodeList reads the stream of JSON objects go list writes, keyed by import path.
func decodeList(out []byte) (map[string]listed, error) {
	byPath := map[string]listed{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		err := dec.Decode(&p)
		if err == io.EOF {
			return byPath, nil
		}
		if err != nil {
			return nil, fmt.Errorf("apirecord: reading go list's output: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("apirecord: %s: %s", p.ImportPath, p.Error.Err)
		}
		if p.Export == "" {
			return nil, fmt.Errorf("apirecord: go list gave no export data for %s", p.ImportPath)
		}
		byPath[p.ImportPath] = p
	}
}
