// Package atomicfile writes a file so that it is either its complete new
// content or untouched, even if the process is killed half-way: the
// content goes to a temporary file in the same directory, which is synced
// and then renamed over the destination (rename is atomic within one file
// system on POSIX; on Windows os.Rename replaces the file as MoveFileEx
// does). A destination that exists and is not a regular file — a device
// such as /dev/null or /dev/stderr, a named pipe — is written in place:
// renaming over it would replace the device with a file.
//
// It is our own ten lines rather than a library (github.com/google/renameio
// does the same and more) because renameio has no Windows support for its
// main entry point and the tree needs exactly this: one writer, mode 0644,
// in-place devices.
package atomicfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Mode is the permission of every file written (before the umask), as
// os.Create would make it readable; os.CreateTemp alone makes 0600.
const Mode = 0o644

// Write writes path with what write produces. The error names path. If
// write fails, a regular file at path is left as it was; the error of
// write is returned (wrapped with the path).
func Write(path string, write func(io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return inPlace(path, write)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".cryptocost-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename, a no-op
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	for _, step := range []func() error{func() error { return tmp.Chmod(Mode) }, tmp.Sync, tmp.Close} {
		if err := step(); err != nil {
			tmp.Close()
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// WriteFile writes data to path atomically, as os.WriteFile with Mode.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

func inPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	werr := write(f)
	if err := f.Close(); err != nil && werr == nil {
		werr = err
	}
	if werr != nil {
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	return nil
}
