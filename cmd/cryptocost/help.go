package main

import (
	"embed"
	"strings"
)

// helpFiles hold the commands' long help and examples, one file per
// command (help/cryptocost-NAME.txt: the long help, then a line
// "-- examples --" and the examples), so the command files hold wiring,
// not prose.
//
//go:embed help/*.txt
var helpFiles embed.FS

const examplesMark = "-- examples --\n"

// helpParts splits a command's help file; a missing file is a bug any
// test of the command's help finds (TestEveryCommandHasExamples).
func helpParts(name string) (long, examples string) {
	data, err := helpFiles.ReadFile("help/cryptocost-" + name + ".txt")
	if err != nil {
		panic("no help file for " + name + ": " + err.Error())
	}
	s := strings.TrimSuffix(string(data), "\n")
	if rest, ok := strings.CutPrefix(s, examplesMark); ok {
		return "", rest
	}
	long, examples, _ = strings.Cut(s, "\n"+examplesMark)
	return long, examples
}

func helpLong(name string) string     { l, _ := helpParts(name); return l }
func helpExamples(name string) string { _, e := helpParts(name); return e }
