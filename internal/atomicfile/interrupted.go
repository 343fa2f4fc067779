package atomicfile

import (
	"context"
	"errors"
	"io"
)

// WriteInterrupted is Write, except that a write cut short by Ctrl-C
// (write returns context.Canceled) still keeps what it wrote — an
// interrupted stream's points — and returns the cancellation.
func WriteInterrupted(path string, write func(io.Writer) error) error {
	var canceled error
	err := Write(path, func(w io.Writer) error {
		if err := write(w); err != nil && !errors.Is(err, context.Canceled) {
			return err
		} else if err != nil {
			canceled = err
		}
		return nil
	})
	if err != nil {
		return err
	}
	return canceled
}
