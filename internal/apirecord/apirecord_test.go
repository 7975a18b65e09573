package apirecord

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const shapes = "example.com/fixture/shapes"

// fixtureRoot holds the fixture modules, copied out of testdata (a go.mod there would
// make them modules nested in the SDK's).
var fixtureRoot string

func TestMain(m *testing.M) {
	var err error
	fixtureRoot, err = os.MkdirTemp("", "apirecord")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(fixtureRoot)
	os.Exit(code)
}

// fixtureModule copies testdata/<name> into a module of its own, example.com/fixture,
// and returns its directory.
func fixtureModule(name string) (string, error) {
	dir := filepath.Join(fixtureRoot, name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/fixture\n\ngo 1.26\n"), 0o644)
}

// fixtures loads the shapes package as recorded (before) and as changed (after), with
// one go list for each, once for the whole test binary.
var fixtures = sync.OnceValues(func() (map[string]API, error) {
	apis := map[string]API{}
	for _, name := range []string{"before", "after"} {
		dir, err := fixtureModule(name)
		if err != nil {
			return nil, err
		}
		loaded, err := Load(dir, shapes)
		if err != nil {
			return nil, err
		}
		apis[name] = loaded[0]
	}
	return apis, nil
})

func loadFixtures(t *testing.T) (before, after API) {
	t.Helper()
	apis, err := fixtures()
	require.NoError(t, err)
	return apis["before"], apis["after"]
}

func TestLinesWriteOneLinePerNameAsGoAPIFilesDo(t *testing.T) {
	t.Parallel()
	before, _ := loadFixtures(t)
	p := "pkg " + shapes + ", "
	assert.Equal(t, "shapes", before.Name)
	assert.Equal(t, []string{
		p + "const Sides ideal-int",
		p + "const Unit Kind",
		p + "const Version ideal-string", // no value: it changes at every release
		p + "func Area(float64, float64) float64",
		p + "func Bytes([]uint8, interface{}, int32)",
		p + "func Lookup(ID) Kind",
		p + "func Map[$0 interface{}, $1 interface{}]([]$0, func($0) $1) []$1",
		p + "func Perimeter(float64, float64) float64",
		p + "func Raw() json.RawMessage",
		p + "method (*Box[$0]) Len() int",
		p + "method (*Square) Grow()",
		p + "method (*Square) Shrink()",
		p + "method (Square) Read([]uint8) (int, error)", // promoted from io.Reader
		p + "method (Square) Scale(float64) Square",
		p + "type Box struct, Items []$0",
		p + "type Box[$0 interface{}] struct",
		p + "type Drawer interface { Draw }",
		p + "type Drawer interface, Draw(io.Writer) error",
		p + "type ID = string",
		p + "type Kind string",
		p + "type Number interface { ~int | ~float64 }",
		p + "type Option func(*unexported)",
		p + "type Shape interface { Area, Corners }",
		p + "type Shape interface, Area() float64",
		p + "type Shape interface, Corners() int",
		p + "type Square struct",
		p + "type Square struct, Name string",
		p + "type Square struct, Side float64",
		p + "type Square struct, comparable",
		p + "type Square struct, embedded io.Reader",
		p + "var ErrFlat error",
	}, before.Lines)
}

func TestMissingNamesEachBreakingChangeAndNoAddition(t *testing.T) {
	t.Parallel()
	before, after := loadFixtures(t)
	var got []string
	for _, b := range Missing(before.Lines, after.Lines) {
		got = append(got, b.String())
	}
	for _, tc := range []struct{ change, want string }{
		{"removed func", "func Perimeter(float64, float64) float64"},
		{"changed signature", "func Area(float64, float64) float64 (now: func Area(int, int) int)"},
		{"struct field whose type changed", "type Square struct, Side float64 (now: type Square struct, Side int)"},
		{"removed method", "method (*Square) Grow()"},
		{"removed interface method", "type Shape interface, Corners() int"},
		{"interface that lost a method", "type Shape interface { Area, Corners } (now: type Shape interface { Area })"},
		{"struct that is no longer comparable", "type Square struct, comparable"},
		{"interface that gained a method", "type Drawer interface { Draw } (now: type Drawer interface { Draw, Erase })"},
	} {
		assert.Contains(t, got, tc.want, tc.change)
	}
	// Nothing else: not the additions (Volume, Circle, Square.Color, Square.Tags,
	// Square.Perimeter, Drawer.Erase), nor Shrink's value receiver, Map's renamed type
	// parameters, Option's renamed unexported type or Version's new value.
	assert.Len(t, got, 8, "%q", got)
}

func TestCheckFailsNamingThePackageAndTheName(t *testing.T) {
	t.Parallel()
	before, after := loadFixtures(t)
	file := filepath.Join(t.TempDir(), "shapes.txt")
	require.NoError(t, WriteRecord(file, before))

	ft := &fakeT{TB: t}
	check(ft, "1.0.0", false, []API{after}, []Record{{Package: shapes, File: file}})
	assert.Contains(t, ft.errors, "shapes: removed or changed since 1.0.0: func Perimeter(float64, float64) float64")
	assert.Contains(t, ft.errors, "shapes: removed or changed since 1.0.0: type Square struct, Side float64 (now: type Square struct, Side int)")
	assert.Len(t, ft.errors, 8)

	ft = &fakeT{TB: t}
	check(ft, "1.0.0", false, []API{before}, []Record{{Package: shapes, File: file}})
	assert.Empty(t, ft.errors, "the API as recorded passes")
}

func TestRecordOnlyGrows(t *testing.T) {
	t.Parallel()
	before, after := loadFixtures(t)
	dir := t.TempDir()
	rec := []Record{{Package: shapes, File: filepath.Join(dir, "v1", "shapes.txt")}}

	ft := &fakeT{TB: t}
	check(ft, "1.0.0", false, []API{before}, rec)
	require.Len(t, ft.errors, 1, "no record yet: the check fails")
	assert.Contains(t, ft.errors[0], "-record writes it")

	ft = &fakeT{TB: t}
	check(ft, "1.0.0", true, []API{before}, rec)
	require.Empty(t, ft.errors)
	lines, err := ReadRecord(rec[0].File)
	require.NoError(t, err)
	assert.Equal(t, before.Lines, lines, "a first record is the API as it is")

	ft = &fakeT{TB: t}
	check(ft, "1.0.0", true, []API{after}, rec)
	assert.Len(t, ft.errors, 9, "eight breaks, and the record left as it is")
	lines, err = ReadRecord(rec[0].File)
	require.NoError(t, err)
	assert.Equal(t, before.Lines, lines, "a record that would lose names is not written")

	grown := before
	grown.Lines = append(before.Lines[:len(before.Lines):len(before.Lines)], "pkg "+shapes+", var ErrRound error")
	ft = &fakeT{TB: t}
	check(ft, "1.0.0", true, []API{grown}, rec)
	require.Empty(t, ft.errors)
	lines, err = ReadRecord(rec[0].File)
	require.NoError(t, err)
	assert.Equal(t, grown.Lines, lines, "a record gains the additions")
}

func TestNameOfFindsAChangedNameAgain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ line, want string }{
		{"pkg p, const X ideal-int", "const X"},
		{"pkg p, var ErrX error", "var ErrX"},
		{"pkg p, func Map[$0 interface{}]([]$0) $0", "func Map"},
		{"pkg p, method (*Box[$0]) Len() int", "method Box.Len"},
		{"pkg p, method (Box[$0]) Len() int", "method Box.Len"},
		{"pkg p, type Box[$0 interface{ ~int | ~string }] struct", "type Box"},
		{"pkg p, type Box struct, Items []$0", "type Box, field Items"},
		{"pkg p, type T struct, embedded *io.Reader", "type T, field Reader"},
		{"pkg p, type T struct, embedded List[int]", "type T, field List"},
		{"pkg p, type T struct, comparable", "type T, comparable"},
		{"pkg p, type I interface { M, N }", "type I"},
		{"pkg p, type I interface, M(int) error", "type I, method M"},
		{"pkg p, type ID = string", "type ID"},
	} {
		assert.Equal(t, tc.want, nameOf(tc.line), tc.line)
	}
}

func TestLoadFailsOnAPackageThatIsNotThere(t *testing.T) {
	t.Parallel()
	loadFixtures(t) // makes the fixture modules
	apis, err := Load(filepath.Join(fixtureRoot, "before"), shapes, "example.com/fixture/nowhere")
	require.Error(t, err, "no API is recorded or checked when a package is missing")
	assert.Nil(t, apis)
	assert.Contains(t, err.Error(), "example.com/fixture/nowhere")
}

// fakeT collects what check reports.
type fakeT struct {
	testing.TB
	errors []string
}

func (f *fakeT) Helper()             {}
func (f *fakeT) Logf(string, ...any) {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) Fatal(args ...any) { f.errors = append(f.errors, fmt.Sprint(args...)) }
