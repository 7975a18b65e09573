package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// WarningHeader names, on an answer, the fields of the request body the sandbox
// accepted without reading them: fields the interface does not name, in a body whose
// other fields it leaves "not shown" (the gap-medical quote and purchase). The same
// text is the log entry's Warning.
const WarningHeader = "X-Sandbox-Warning"

// unknownFields lists, as dotted paths ("customer.emial", "a[0].b"), the fields of a
// JSON body that the wire type t does not name, matching names exactly as the
// document does (encoding/json would also take "Currency" for "currency"). A body that
// is not JSON has none: decoding it reports the error. Free-form objects (maps) name
// every field. known is the body without those fields, for the handler to read, so
// that a field said to be unread is not read; it is body itself when none is unknown.
func unknownFields(body []byte, t reflect.Type) (unknown []string, known []byte) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // re-encoded as they came
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, body
	}
	walkUnknown(v, t, "", &unknown)
	if len(unknown) == 0 {
		return nil, body
	}
	slices.Sort(unknown)
	known, err := json.Marshal(v)
	if err != nil {
		return unknown, body
	}
	return unknown, known
}

func walkUnknown(v any, t reflect.Type, path string, unknown *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return // a wrong type, which decoding reports
		}
		fields := jsonFields(t)
		for name, value := range obj {
			field, known := fields[name]
			if !known {
				*unknown = append(*unknown, join(path, name))
				delete(obj, name)
				continue
			}
			walkUnknown(value, field, join(path, name), unknown)
		}
	case reflect.Slice:
		items, ok := v.([]any)
		if !ok {
			return
		}
		for i, item := range items {
			walkUnknown(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i), unknown)
		}
	}
}

// jsonFields maps the JSON names of a struct's fields, embedded structs' included,
// to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "":
			for n, ft := range jsonFields(f.Type) {
				fields[n] = ft
			}
		case f.IsExported():
			if name == "" {
				name = f.Name
			}
			fields[name] = f.Type
		}
	}
	return fields
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// checkFields compares the body with the endpoint's wire type: a field it does not
// name is a 400 naming it, or, in a body the interface leaves open, a warning, and
// known is the body without it, for the handler.
func checkFields(ep endpoint, body []byte) (known []byte, warning string, err error) {
	if ep.body == nil {
		return body, "", nil
	}
	unknown, known := unknownFields(body, ep.body)
	switch {
	case len(unknown) == 0:
		return body, "", nil
	case ep.open:
		return known, "accepted but not read (the interface does not name them): " + strings.Join(unknown, ", "), nil
	}
	return nil, "", unknownParameter(unknown, "the interface")
}

// unknownParameter is the 400 for the fields of a body its document does not name,
// on the interface and on the controls alike: one mistake, one code, the fields
// named. namer is what does not name them ("the interface", "this control").
func unknownParameter(unknown []string, namer string) error {
	return badRequest("unknown_parameter", "unknown parameter %s: %s does not name it (misspelt?)", strings.Join(unknown, ", "), namer)
}
