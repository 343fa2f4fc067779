package result

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRunFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	run := func(id string) string { return `{"schema": "` + Schema + `", "id": "` + id + `", "kind": "bench"}` }
	one := write("one.json", run("r1"))
	got, err := ReadRunFile(one)
	if err != nil || got.ID != "r1" {
		t.Fatalf("ReadRunFile(one run) = %+v, %v", got, err)
	}
	for _, c := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.json"), "--from: open "},
		{write("bad.json", "not json"), "bad.json: not cryptocost JSON: "},
		{write("bad.json", "not json"), "(want a cryptocost run written with --format json)"},
		{write("two.json", "["+run("a")+", "+run("b")+"]"), "two.json holds 2 runs: give a file with one"},
	} {
		if _, err := ReadRunFile(c.file); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadRunFile(%s) = %v, want an error containing %q", filepath.Base(c.file), err, c.want)
		}
	}
}
