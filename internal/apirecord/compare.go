package apirecord

import (
	"strings"
)

// Break is a recorded line that the current API no longer has: the name is gone, or
// its type changed.
type Break struct {
	Line string   // the recorded line
	Now  []string // the current lines for the same name, if it still exists
}

// String writes the recorded declaration, and what the name is now if it still
// exists: "func NewClient(string, ...Option) (*Client, error) (now: func
// NewClient(string) *Client)".
func (b Break) String() string {
	s := declaration(b.Line)
	if len(b.Now) == 0 {
		return s
	}
	now := make([]string, len(b.Now))
	for i, l := range b.Now {
		now[i] = declaration(l)
	}
	return s + " (now: " + strings.Join(now, "; ") + ")"
}

// Missing returns, in the record's order, the recorded lines that current lacks; lines
// of current that are not recorded are additions, which break nothing. A method
// recorded with a pointer receiver is still there when current has it with a value
// receiver: it is then in the method sets of both T and *T.
func Missing(recorded, current []string) []Break {
	have := make(map[string]bool, len(current))
	byName := map[string][]string{}
	for _, l := range current {
		have[l] = true
		byName[nameOf(l)] = append(byName[nameOf(l)], l)
	}
	var breaks []Break
	for _, l := range recorded {
		if have[l] || have[asValueMethod(l)] {
			continue
		}
		breaks = append(breaks, Break{Line: l, Now: byName[nameOf(l)]})
	}
	return breaks
}

// declaration is a line without its "pkg <path>, " prefix.
func declaration(line string) string {
	if rest, ok := strings.CutPrefix(line, "pkg "); ok {
		if _, decl, ok := strings.Cut(rest, ", "); ok {
			return decl
		}
	}
	return line
}

// asValueMethod turns "method (*T) M..." into "method (T) M...", and leaves any other
// line as it is.
func asValueMethod(line string) string {
	prefix, rest, ok := strings.Cut(line, ", method (*")
	if !ok {
		return line
	}
	return prefix + ", method (" + rest
}

// nameOf is what a line declares, without its type: the key under which a changed
// line is found again.
//
//	const X ideal-int                       -> const X
//	func F(int) error                       -> func F
//	method (*T) M(int) error                -> method T.M
//	type T struct                           -> type T
//	type T struct, F int                    -> type T, field F
//	type T struct, comparable               -> type T, comparable
//	type T struct, embedded *io.Reader      -> type T, field Reader
//	type T interface, M() error             -> type T, method M
func nameOf(line string) string {
	decl := declaration(line)
	kind, rest, _ := strings.Cut(decl, " ")
	switch kind {
	case "method":
		recv, after, _ := strings.Cut(rest, ") ")
		recv = strings.TrimLeft(recv, "(*")
		recv, _, _ = strings.Cut(recv, "[")
		return "method " + recv + "." + ident(after)
	case "type":
		name := ident(rest)
		rest = skipBrackets(rest[len(name):])
		if field, ok := strings.CutPrefix(rest, " struct, "); ok {
			if field == "comparable" {
				return "type " + name + ", comparable"
			}
			if typ, ok := strings.CutPrefix(field, "embedded "); ok {
				return "type " + name + ", field " + embeddedName(typ)
			}
			return "type " + name + ", field " + ident(field)
		}
		if method, ok := strings.CutPrefix(rest, " interface, "); ok {
			return "type " + name + ", method " + ident(method)
		}
		return "type " + name
	}
	return kind + " " + ident(rest)
}

// ident is the identifier s starts with.
func ident(s string) string {
	if i := strings.IndexAny(s, " [("); i >= 0 {
		return s[:i]
	}
	return s
}

// skipBrackets drops a leading [...] (a declaration's type parameters) from s.
func skipBrackets(s string) string {
	if !strings.HasPrefix(s, "[") {
		return s
	}
	depth := 0
	for i, r := range s {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return s[i+1:]
			}
		}
	}
	return s
}

// embeddedName is the name of the field an embedded type makes: *io.Reader -> Reader,
// List[int] -> List.
func embeddedName(typ string) string {
	typ = strings.TrimLeft(typ, "*")
	typ, _, _ = strings.Cut(typ, "[")
	if i := strings.LastIndex(typ, "."); i >= 0 {
		typ = typ[i+1:]
	}
	return typ
}
