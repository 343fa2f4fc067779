package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Tier: fast. A write cancelled by Ctrl-C keeps what it wrote and says it
// was cancelled; any other failure leaves the file as it was.
func TestWriteInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "points.csv")
	if err := WriteFile(path, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := WriteInterrupted(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old\n" {
		t.Errorf("after a failed write the file is %q, want it untouched", got)
	}
	err := WriteInterrupted(path, func(w io.Writer) error {
		io.WriteString(w, "point 1\n")
		return fmt.Errorf("stream: %w", context.Canceled)
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the cancellation", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "point 1\n" {
		t.Errorf("after an interrupted write the file is %q, want what was written", got)
	}
}
