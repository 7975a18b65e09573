package apirecord

import (
	"go/types"
	"slices"
	"strings"
)

// Lines returns the exported API of pkg, one line per name, sorted, each starting
// "pkg <import path>, ":
//
//	pkg p, const Version ideal-string
//	pkg p, const CountryUS Country
//	pkg p, var ErrServer error
//	pkg p, func NewClient(string, ...Option) (*Client, error)
//	pkg p, func Map[$0 interface{}, $1 interface{}]([]$0, func($0) $1) []$1
//	pkg p, type Client struct
//	pkg p, type Quote struct, Premium int64
//	pkg p, type Quote struct, embedded Response
//	pkg p, type Date struct, comparable
//	pkg p, method (*Client) Do(context.Context, string, string, interface{}, interface{}) error
//	pkg p, method (Date) String() string
//	pkg p, type Observer interface { StartCall }
//	pkg p, type Observer interface, StartCall(context.Context, CallInfo) context.Context
//	pkg p, type Country string
//	pkg p, type Option func(*unexported) error
//	pkg p, type ID = string
//
// A constant's value is left out (Version changes at every release); its type is kept.
// Methods are those of the type's method sets, promoted ones included: a value method
// is written with the value receiver, a pointer method with the pointer one.
func Lines(pkg *types.Package) []string {
	w := walker{printer: printer{pkg: pkg}, prefix: "pkg " + pkg.Path() + ", "}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			w.emit("const " + name + " " + w.typ(obj.Type()))
		case *types.Var:
			w.emit("var " + name + " " + w.typ(obj.Type()))
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			w.emit("func " + name + w.typeParams(sig.TypeParams()) + w.signature(sig))
		case *types.TypeName:
			w.typeName(obj)
		}
	}
	slices.Sort(w.lines)
	return slices.Compact(w.lines)
}

type walker struct {
	printer
	prefix string
	lines  []string
}

func (w *walker) emit(decl string) {
	w.lines = append(w.lines, w.prefix+decl)
}

func (w *walker) typeName(obj *types.TypeName) {
	name := obj.Name()
	if alias, ok := obj.Type().(*types.Alias); ok {
		w.emit("type " + name + w.typeParams(alias.TypeParams()) + " = " + w.typ(alias.Rhs()))
		return
	}
	if obj.IsAlias() { // an alias materialized as its target (gotypesalias=0)
		w.emit("type " + name + " = " + w.typ(obj.Type()))
		return
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		return
	}
	head := "type " + name
	decl := head + w.typeParams(named.TypeParams())
	switch u := named.Underlying().(type) {
	case *types.Struct:
		w.emit(decl + " struct")
		if types.Comparable(named) {
			// A field of a slice, map or func type added later would break == and
			// map keys: apidiff's rule.
			w.emit(head + " struct, comparable")
		}
		w.fields(head+" struct, ", u)
	case *types.Interface:
		w.emit(decl + " interface { " + strings.Join(w.interfaceSummary(u), ", ") + " }")
		for i := range u.NumMethods() {
			if m := u.Method(i); m.Exported() {
				w.emit(head + " interface, " + m.Name() + w.signature(m.Type().(*types.Signature)))
			}
		}
		return // an interface's methods are its lines above
	default:
		w.emit(decl + " " + w.typ(u))
	}
	w.methods(named)
}

// fields writes a struct's exported fields, embedded ones as "embedded T".
func (w *walker) fields(head string, s *types.Struct) {
	for i := range s.NumFields() {
		f := s.Field(i)
		if !f.Exported() {
			continue
		}
		if f.Embedded() {
			w.emit(head + "embedded " + w.typ(f.Type()))
			continue
		}
		w.emit(head + f.Name() + " " + w.typ(f.Type()))
	}
}

// interfaceSummary names an interface's exported methods, sorted, then
// "unexported methods" if it has some (then no one outside can implement it), then
// the terms of its type set if it is a constraint: adding a method to an interface
// others implement breaks them, so this line changes when one is added.
func (w *walker) interfaceSummary(u *types.Interface) []string {
	var names []string
	unexported := false
	for i := range u.NumMethods() {
		if m := u.Method(i); m.Exported() {
			names = append(names, m.Name())
		} else {
			unexported = true
		}
	}
	slices.Sort(names)
	if unexported {
		names = append(names, "unexported methods")
	}
	return append(names, w.typeTerms(u)...)
}

// methods writes the exported methods of the method sets of T and *T, promoted ones
// included; a method of T's set is written once, with the value receiver.
func (w *walker) methods(named *types.Named) {
	seen := map[string]bool{}
	for _, recv := range []types.Type{named, types.NewPointer(named)} {
		set := types.NewMethodSet(recv)
		for i := range set.Len() {
			m := set.At(i).Obj()
			if !m.Exported() || seen[m.Name()] {
				continue
			}
			seen[m.Name()] = true
			sig := m.Type().(*types.Signature)
			w.emit("method (" + w.typ(recv) + ") " + m.Name() + w.signature(sig))
		}
	}
}
