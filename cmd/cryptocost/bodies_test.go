package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxBody is the most lines a command body (a RunE function literal) may
// have: cmd/ parses flags, calls the library and prints; anything longer
// is a rule that belongs in a package, or a runner job.
const maxBody = 40

// TestCommandBodiesAreShort fails on any RunE body longer than maxBody
// lines in cmd/cryptocost. Tier: fast (parses the package's source).
func TestCommandBodiesAreShort(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			if id, ok := kv.Key.(*ast.Ident); !ok || id.Name != "RunE" {
				return true
			}
			fn, ok := kv.Value.(*ast.FuncLit)
			if !ok {
				return true
			}
			checked++
			start, end := fset.Position(fn.Body.Lbrace), fset.Position(fn.Body.Rbrace)
			if lines := end.Line - start.Line - 1; lines > maxBody {
				t.Errorf("%s:%d: RunE body is %d lines, more than %d: move its rules into their package or a runner job", name, start.Line, lines, maxBody)
			}
			return true
		})
	}
	if checked < 20 {
		t.Errorf("only %d RunE bodies found: is the test looking at the right files?", checked)
	}
}

// longConstructors are the command constructors still over maxBody lines,
// for their flag declarations: the list only shrinks (issue 20).
var longConstructors = map[string]bool{}

// TestFunctionsAreShort fails on any function in cmd/cryptocost longer
// than maxBody lines (but the constructors listed in longConstructors),
// and on a listed one that is no longer long. Tier: fast (parses the
// package's source).
func TestFunctionsAreShort(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	long := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := fset.Position(fn.Body.Lbrace), fset.Position(fn.Body.Rbrace)
			lines := end.Line - start.Line - 1
			switch {
			case lines <= maxBody:
			case longConstructors[fn.Name.Name]:
				long[fn.Name.Name] = true
			default:
				t.Errorf("%s:%d: %s is %d lines, more than %d: split it, or move its rules into their package", name, start.Line, fn.Name.Name, lines, maxBody)
			}
		}
	}
	for name := range longConstructors {
		if !long[name] {
			t.Errorf("%s is no longer over %d lines: take it off longConstructors", name, maxBody)
		}
	}
}
