// Command releasecheck cuts the modules a partner imports (the core at the root of the
// repository and otel/) at insurance.Version into a file-based module proxy, laid out
// as proxy.golang.org serves a tagged module (.info, .mod, .zip and list under
// <module>/@v/), and checks what a partner's go get would receive:
//
//   - Version is a semantic version, and CHANGELOG.md has a heading for it;
//   - each module zip, made by golang.org/x/mod/zip as the go command makes it, holds
//     a LICENSE and a go.mod, and no file of a module nested in it (e2e/, bench/, ...);
//   - otel/go.mod requires the core at exactly that version (its replace, which the go
//     command ignores in a dependency, does not count).
//
// scripts/release-check.sh runs it, then builds and runs a partner module against the
// proxy; RELEASING.md says when. It prints the version ("v1.0.0") on stdout, what it
// did and what failed on stderr, and exits 1 on any failure.
//
//	go run . -root ../.. -proxy /tmp/proxy
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	modzip "golang.org/x/mod/zip"
)

// otelDir is the directory of the module partners import beside the core.
const otelDir = "otel"

func main() {
	root := flag.String("root", "../..", "the repository's root directory (the core module)")
	proxy := flag.String("proxy", "", "the directory to write the module proxy into (created)")
	flag.Parse()
	if *proxy == "" {
		fmt.Fprintln(os.Stderr, "releasecheck: -proxy is required")
		os.Exit(2)
	}
	version, errs := check(*root, *proxy)
	if len(errs) > 0 {
		for _, err := range errs {
			fmt.Fprintln(os.Stderr, "releasecheck: FAIL:", err)
		}
		os.Exit(1)
	}
	fmt.Println(version)
}

// check runs every check it can and returns the version cut ("v1.0.0") and the
// failures.
func check(root, proxy string) (string, []error) {
	v, err := readVersion(root)
	if err != nil {
		return "", []error{err}
	}
	version := "v" + v
	logf("Version %q in the core's Go files: the release is %s", v, version)
	var errs []error
	if err := checkChangelog(filepath.Join(root, "CHANGELOG.md"), v); err != nil {
		errs = append(errs, err)
	}
	core, err := cut(root, version, proxy)
	if err != nil {
		errs = append(errs, err)
	}
	if _, err := cut(filepath.Join(root, otelDir), version, proxy); err != nil {
		errs = append(errs, err)
	}
	if core != "" {
		if err := checkRequirement(root, otelDir+"/go.mod", core, version); err != nil {
			errs = append(errs, err)
		}
	}
	return version, errs
}

// readVersion finds `const Version = "x.y.z"` among the non-test Go files at root,
// wherever the package's files put it.
func readVersion(root string) (string, error) {
	files, err := filepath.Glob(filepath.Join(root, "*.go"))
	if err != nil {
		return "", err
	}
	var found []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return "", err
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if id.Name != "Version" || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return "", fmt.Errorf("%s: Version is not a string literal", fset.Position(id.Pos()))
					}
					s, err := strconv.Unquote(lit.Value)
					if err != nil {
						return "", err
					}
					found = append(found, s)
				}
			}
		}
	}
	switch {
	case len(found) != 1:
		return "", fmt.Errorf("want one `const Version` in %s/*.go, found %d", root, len(found))
	case semver.Canonical("v"+found[0]) != "v"+found[0]:
		return "", fmt.Errorf("const Version = %q is not a full semantic version such as \"1.0.0\"", found[0])
	}
	return found[0], nil
}

// checkChangelog wants a "## 0.3.0" or "## [0.3.0] - date" heading in CHANGELOG.md.
func checkChangelog(path, v string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	heading := regexp.MustCompile(`(?m)^## \[?` + regexp.QuoteMeta(v) + `\]?(\s|$)`)
	if !heading.Match(b) {
		return fmt.Errorf("CHANGELOG.md has no %q heading for Version %s", "## "+v, v)
	}
	logf("CHANGELOG.md has a heading for %s", v)
	return nil
}

// cut writes the module in dir at version into proxy and checks its zip. It returns
// the module's path.
func cut(dir, version, proxy string) (string, error) {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return "", fmt.Errorf("%s/go.mod names no module", dir)
	}
	m := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return "", err
	}
	escPath, err := module.EscapePath(path)
	if err != nil {
		return "", err
	}
	at := filepath.Join(proxy, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := modzip.CreateFromDir(&buf, m, dir); err != nil {
		return "", fmt.Errorf("zip of %s: %w", m, err)
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return "", err
	}
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": info,
		version + ".mod":  gomod,
		version + ".zip":  buf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return "", err
		}
	}
	return path, checkZip(dir, m, buf.Bytes())
}

// checkZip checks the files of m's zip: a LICENSE and a go.mod at the module's root,
// nothing from a nested module. It warns of files git does not track, which a
// release cut from its tag would not hold.
func checkZip(dir string, m module.Version, data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	prefix := m.Path + "@" + m.Version + "/"
	names := make(map[string]bool, len(zr.File))
	for _, f := range zr.File {
		name, ok := strings.CutPrefix(f.Name, prefix)
		if !ok {
			return fmt.Errorf("zip of %s: %q is outside %s", m, f.Name, prefix)
		}
		names[name] = true
	}
	var errs []error
	for _, want := range []string{"LICENSE", "go.mod"} {
		if !names[want] {
			errs = append(errs, fmt.Errorf("zip of %s has no %s (add %s)", m, want, filepath.Join(dir, want)))
		}
	}
	nested, err := nestedModules(dir)
	if err != nil {
		return err
	}
	for name := range names {
		for _, n := range nested {
			if strings.HasPrefix(name, n+"/") {
				errs = append(errs, fmt.Errorf("zip of %s holds %s, a file of the nested module %s/", m, name, n))
			}
		}
	}
	var untracked []string
	if names[".git"] {
		// A git worktree's .git is a file, which CreateFromDir keeps (it leaves out
		// directories named .git); a fresh clone has none.
		untracked = append(untracked, ".git")
	}
	for _, name := range gitUntracked(dir) {
		if names[name] {
			untracked = append(untracked, name)
		}
	}
	if len(untracked) > 0 {
		logf("warning: the zip of %s holds files git does not track, which a release cut from its tag will not: %s",
			m, strings.Join(untracked, " "))
	}
	left := "none"
	if len(nested) > 0 {
		slices.Sort(nested)
		left = strings.Join(nested, "/ ") + "/"
	}
	logf("cut %s: %d files, %d bytes, LICENSE included; nested modules left out: %s",
		m, len(names), len(data), left)
	return errors.Join(errs...)
}

// nestedModules lists, relative to dir and slash-separated, the directories under dir
// that hold a go.mod: modules of their own, which dir's zip must not contain.
func nestedModules(dir string) ([]string, error) {
	var nested []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Name() == "go.mod" && !d.IsDir() && filepath.Dir(p) != filepath.Clean(dir) {
			rel, err := filepath.Rel(dir, filepath.Dir(p))
			if err != nil {
				return err
			}
			nested = append(nested, filepath.ToSlash(rel))
		}
		return nil
	})
	return nested, err
}

// gitUntracked lists the files under dir, relative to it, that git does not track
// (ignored ones included); none when dir is not in a git work tree.
func gitUntracked(dir string) []string {
	out, err := exec.Command("git", "-C", dir, "ls-files", "-z", "--others").Output()
	if err != nil {
		return nil
	}
	return strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 })
}

// checkRequirement wants the go.mod at root/otelMod to require core at exactly version.
func checkRequirement(root, otelMod, core, version string) error {
	data, err := os.ReadFile(filepath.Join(root, otelMod))
	if err != nil {
		return err
	}
	f, err := modfile.Parse(otelMod, data, nil)
	if err != nil {
		return err
	}
	for _, r := range f.Require {
		if r.Mod.Path != core {
			continue
		}
		if r.Mod.Version != version {
			return fmt.Errorf("%s requires %s %s, but Version is %s: set the requirement to %s",
				otelMod, core, r.Mod.Version, strings.TrimPrefix(version, "v"), version)
		}
		logf("%s requires %s %s, as released", otelMod, core, version)
		return nil
	}
	return fmt.Errorf("%s does not require %s", otelMod, core)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "releasecheck: "+format+"\n", args...)
}
