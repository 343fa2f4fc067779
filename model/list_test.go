package model

import (
	"strings"
	"testing"
)

func TestWriteList(t *testing.T) {
	var b strings.Builder
	if err := WriteList(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "MODEL") || !strings.Contains(b.String(), "COST TABLE") {
		t.Errorf("WriteList:\n%s", b.String())
	}
}

func TestWriteSource(t *testing.T) {
	ms, err := Builtins()
	if err != nil || len(ms) == 0 {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteSource(&b, ms[0].File); err != nil || b.Len() == 0 {
		t.Errorf("WriteSource(%s): %v, %d bytes", ms[0].File, err, b.Len())
	}
	if err := WriteSource(&b, "/no/such/file.yaml"); err == nil {
		t.Error("WriteSource of a missing file: no error")
	}
}
