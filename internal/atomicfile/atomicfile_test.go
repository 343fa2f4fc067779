package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Tier: fast. A failed write leaves the old file and no temporary file;
// a good one replaces it with mode 0644; a device is written in place.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := WriteFile(path, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old\n" {
		t.Errorf("after a failed write the file is %q, want it untouched", got)
	}
	if err := WriteFile(path, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new\n" {
		t.Errorf("file is %q, want new", got)
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := os.FileMode(Mode); fi.Mode().Perm() != want { // chmod, not the umask
			t.Errorf("mode %v, want %v", fi.Mode().Perm(), want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only out.json (no temporary files left)", len(entries))
	}
	if _, err := os.Stat(os.DevNull); err == nil {
		if err := WriteFile(os.DevNull, []byte("x")); err != nil {
			t.Errorf("writing %s: %v", os.DevNull, err)
		}
		if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
			t.Errorf("%s became a regular file", os.DevNull)
		}
	}
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir"), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
