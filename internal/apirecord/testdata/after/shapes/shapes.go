// Package shapes is the API after changes: some break what was recorded, some add.
package shapes

import (
	"encoding/json"
	"io"
	"time"
)

// Version changes at every release: its value is not part of the API.
const Version = "1.1.0"

// Sides is an untyped constant.
const Sides = 4

// Unit is a typed constant.
const Unit Kind = "cm"

// Option names an unexported type, renamed from settings to config: no one outside
// can name it, so that breaks nothing.
type Option func(*config)

type config struct{}

// Kind is a defined string type.
type Kind string

// ErrFlat is a variable.
var ErrFlat error

// Area changed its signature.
func Area(w, h int) int { return w * h }

// Volume is new.
func Volume(w, h, d float64) float64 { return w * h * d }

// Square's Side changed type; Color is new, and so is Tags, which makes Square
// no longer comparable.
type Square struct {
	Side  int
	Name  string
	Color string
	Tags  []string
	io.Reader
	created time.Time
}

// Scale stays.
func (s Square) Scale(f float64) Square { return Square{Side: s.Side * int(f)} }

// Shrink has a value receiver now.
func (s Square) Shrink() {}

// Perimeter is a new method.
func (s Square) Perimeter() int { return 4 * s.Side }

// Shape lost Corners.
type Shape interface {
	Area() float64
}

// Drawer gained Erase.
type Drawer interface {
	Draw(w io.Writer) error
	Erase()
}

// Box is generic.
type Box[T any] struct {
	Items []T
}

// Len stays.
func (b *Box[T]) Len() int { return len(b.Items) }

// Map's type parameters are renamed.
func Map[In, Out any](s []In, f func(In) Out) []Out { return nil }

// Number is a constraint.
type Number interface {
	~int | ~float64
}

// Bytes uses byte, any and rune, written as uint8, interface{} and int32.
func Bytes(b []byte, v any, r rune) {}

// ID is an alias.
type ID = string

// Lookup names ID, not string.
func Lookup(id ID) Kind { return Kind(id) }

// Raw names json.RawMessage, a type of its own in Go 1.26 and an alias of
// jsontext.Value from Go 1.27 on: the same name in both.
func Raw() json.RawMessage { return nil }

// Circle is new.
type Circle struct {
	Radius float64
}
