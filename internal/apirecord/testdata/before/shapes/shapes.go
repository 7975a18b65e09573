// Package shapes is the API as recorded: the fixture's 1.0.0.
package shapes

import (
	"encoding/json"
	"io"
	"time"
)

// Version changes at every release: its value is not part of the API.
const Version = "1.0.0"

// Sides is an untyped constant.
const Sides = 4

// Unit is a typed constant.
const Unit Kind = "cm"

// Option names an unexported type, renamed from settings to config: no one outside
// can name it, so that breaks nothing.
type Option func(*settings)

type settings struct{}

// Kind is a defined string type.
type Kind string

// ErrFlat is a variable.
var ErrFlat error

// Area will change its signature.
func Area(w, h float64) float64 { return w * h }

// Perimeter will be removed.
func Perimeter(w, h float64) float64 { return 2 * (w + h) }

// Square will see its Side change type, lose Grow and turn Shrink into a value method.
type Square struct {
	Side float64
	Name string
	io.Reader
	created time.Time
}

// Scale stays.
func (s Square) Scale(f float64) Square { return Square{Side: s.Side * f} }

// Grow will be removed.
func (s *Square) Grow() { s.Side++ }

// Shrink will get a value receiver: then both Square and *Square have it.
func (s *Square) Shrink() {}

// Shape will lose Corners.
type Shape interface {
	Area() float64
	Corners() int
}

// Drawer will gain a method: every type outside that implements it then no longer does.
type Drawer interface {
	Draw(w io.Writer) error
}

// Box is generic.
type Box[T any] struct {
	Items []T
}

// Len stays.
func (b *Box[T]) Len() int { return len(b.Items) }

// Map's type parameters will be renamed, which changes nothing for its callers.
func Map[T, U any](s []T, f func(T) U) []U { return nil }

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
