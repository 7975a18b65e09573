package apirecord

import (
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// printer writes types as the Go distribution's api/ files do: names of other packages
// qualified by package name (http.Client), names of the recorded package bare (its
// unexported ones as "unexported"), byte
// and rune as uint8 and int32, any as interface{}, type parameters as $0, $1, ...
// by position, other aliases by their names. Each choice makes the text the same
// whether the package was read from source or from export data, and by either Go.
type printer struct {
	pkg *types.Package // the recorded package: its names are written bare
}

// typ writes t.
func (p printer) typ(t types.Type) string {
	var b strings.Builder
	p.write(&b, t)
	return b.String()
}

func (p printer) write(b *strings.Builder, t types.Type) {
	if a, ok := t.(*types.Alias); ok && a.Obj().Pkg() != nil {
		// An alias by its name: json.RawMessage, a type of its own in Go 1.26, is an
		// alias of jsontext.Value from Go 1.27 on, and code that names it compiles with
		// both.
		p.writeName(b, a.Obj(), a.TypeArgs(), nil)
		return
	}
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		b.WriteString(basicName(t))
	case *types.Pointer:
		b.WriteString("*")
		p.write(b, t.Elem())
	case *types.Slice:
		b.WriteString("[]")
		p.write(b, t.Elem())
	case *types.Array:
		b.WriteString("[" + strconv.FormatInt(t.Len(), 10) + "]")
		p.write(b, t.Elem())
	case *types.Map:
		b.WriteString("map[")
		p.write(b, t.Key())
		b.WriteString("]")
		p.write(b, t.Elem())
	case *types.Chan:
		p.writeChan(b, t)
	case *types.Signature:
		b.WriteString("func")
		b.WriteString(p.signature(t))
	case *types.Struct:
		p.writeStruct(b, t)
	case *types.Interface:
		items := p.interfaceItems(t)
		if len(items) == 0 {
			b.WriteString("interface{}")
			return
		}
		b.WriteString("interface{ " + strings.Join(items, "; ") + " }")
	case *types.Union:
		for i := range t.Len() {
			if i > 0 {
				b.WriteString(" | ")
			}
			if t.Term(i).Tilde() {
				b.WriteString("~")
			}
			p.write(b, t.Term(i).Type())
		}
	case *types.TypeParam:
		b.WriteString("$" + strconv.Itoa(t.Index()))
	case *types.Named:
		p.writeNamed(b, t)
	default:
		// A kind of type this printer does not know yet: go/types' own text keeps the
		// record honest (it still changes when the type does).
		b.WriteString(types.TypeString(t, p.qualifier))
	}
}

// qualifier names other packages by package name, as the api/ files do.
func (p printer) qualifier(other *types.Package) string {
	if other == p.pkg {
		return ""
	}
	return other.Name()
}

func (p printer) writeNamed(b *strings.Builder, t *types.Named) {
	p.writeName(b, t.Obj(), t.TypeArgs(), t.TypeParams())
}

// writeName writes a defined type or an alias: its name, qualified unless it is the
// recorded package's, then its type arguments, or for a generic type not instantiated
// (the receiver of its methods) its type parameters.
func (p printer) writeName(b *strings.Builder, obj *types.TypeName, args *types.TypeList, params *types.TypeParamList) {
	switch {
	case obj.Pkg() == p.pkg && !obj.Exported():
		// A type of the recorded package that others cannot name (Option
		// func(*settings) error): renaming it breaks no one.
		b.WriteString("unexported")
	case obj.Pkg() != nil && obj.Pkg() != p.pkg:
		b.WriteString(obj.Pkg().Name() + "." + obj.Name())
	default:
		b.WriteString(obj.Name())
	}
	var list []types.Type
	switch {
	case args.Len() > 0:
		for i := range args.Len() {
			list = append(list, args.At(i))
		}
	case params.Len() > 0:
		for i := range params.Len() {
			list = append(list, params.At(i))
		}
	default:
		return
	}
	b.WriteString("[")
	for i, t := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		p.write(b, t)
	}
	b.WriteString("]")
}

func (p printer) writeChan(b *strings.Builder, t *types.Chan) {
	switch t.Dir() {
	case types.SendRecv:
		b.WriteString("chan ")
		// chan (<-chan T) is not chan<- (chan T): keep the parentheses.
		if inner, ok := types.Unalias(t.Elem()).(*types.Chan); ok && inner.Dir() == types.RecvOnly {
			b.WriteString("(" + p.typ(inner) + ")")
			return
		}
	case types.SendOnly:
		b.WriteString("chan<- ")
	case types.RecvOnly:
		b.WriteString("<-chan ")
	}
	p.write(b, t.Elem())
}

func (p printer) writeStruct(b *strings.Builder, t *types.Struct) {
	if t.NumFields() == 0 {
		b.WriteString("struct{}")
		return
	}
	fields := make([]string, 0, t.NumFields())
	for i := range t.NumFields() {
		f := t.Field(i)
		s := p.typ(f.Type())
		if !f.Embedded() {
			s = f.Name() + " " + s
		}
		if tag := t.Tag(i); tag != "" {
			s += " " + strconv.Quote(tag)
		}
		fields = append(fields, s)
	}
	b.WriteString("struct{ " + strings.Join(fields, "; ") + " }")
}

// interfaceItems lists an interface's methods, sorted by name, each with its
// signature, then the terms of its type set as written (~int | ~string,
// comparable). Interfaces whose methods come from embedded interfaces print the same as
// those that spell them out: they are the same type.
func (p printer) interfaceItems(t *types.Interface) []string {
	var items []string
	for i := range t.NumMethods() {
		m := t.Method(i)
		items = append(items, m.Name()+p.signature(m.Type().(*types.Signature)))
	}
	slices.Sort(items)
	return append(items, p.typeTerms(t)...)
}

// typeTerms lists what t embeds beyond methods: unions, single terms, comparable, and
// embedded constraints that have them.
func (p printer) typeTerms(t *types.Interface) []string {
	var terms []string
	for i := range t.NumEmbeddeds() {
		e := t.EmbeddedType(i)
		if iface, ok := types.Unalias(e).Underlying().(*types.Interface); ok && iface.IsMethodSet() {
			continue // its methods are listed already
		}
		terms = append(terms, p.typ(e))
	}
	return terms
}

// signature writes a signature's parameters and results, without "func" or a name:
// (string, ...Option) (*Client, error).
func (p printer) signature(sig *types.Signature) string {
	var b strings.Builder
	b.WriteString("(")
	params := sig.Params()
	for i := range params.Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		t := params.At(i).Type()
		if sig.Variadic() && i == params.Len()-1 {
			if s, ok := types.Unalias(t).(*types.Slice); ok {
				b.WriteString("...")
				t = s.Elem()
			}
		}
		p.write(&b, t)
	}
	b.WriteString(")")
	results := sig.Results()
	switch results.Len() {
	case 0:
	case 1:
		b.WriteString(" ")
		p.write(&b, results.At(0).Type())
	default:
		b.WriteString(" (")
		for i := range results.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			p.write(&b, results.At(i).Type())
		}
		b.WriteString(")")
	}
	return b.String()
}

// typeParams writes a declaration's type parameters with their constraints:
// [$0 interface{}, $1 comparable]; nothing when there are none.
func (p printer) typeParams(list *types.TypeParamList) string {
	if list.Len() == 0 {
		return ""
	}
	parts := make([]string, list.Len())
	for i := range list.Len() {
		tp := list.At(i)
		parts[i] = p.typ(tp) + " " + p.typ(tp.Constraint())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// basicName names a basic type as the api/ files do: byte and rune by what they alias,
// an untyped constant's type as ideal-int, ideal-string, ...
func basicName(t *types.Basic) string {
	switch t.Kind() {
	case types.UntypedBool:
		return "ideal-bool"
	case types.UntypedInt:
		return "ideal-int"
	case types.UntypedRune:
		return "ideal-char"
	case types.UntypedFloat:
		return "ideal-float"
	case types.UntypedComplex:
		return "ideal-complex"
	case types.UntypedString:
		return "ideal-string"
	case types.UntypedNil:
		return "nil"
	case types.UnsafePointer:
		return "unsafe.Pointer"
	}
	return types.Typ[t.Kind()].Name()
}
