// Package progress draws a progress bar on a terminal for long runs, and
// nothing otherwise: not when stderr is not a terminal, not with --quiet,
// and not during the first two seconds (short runs stay clean).
package progress

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// Delay is how long a run goes before the bar appears.
const Delay = 2 * time.Second

// Bar reports a run's progress on stderr. The zero value is silent.
type Bar struct {
	out   io.Writer
	label string

	mu      sync.Mutex
	total   int
	start   time.Time
	done    int
	current string
	ended   bool
	timer   *time.Timer
	p       *mpb.Progress
	bar     *mpb.Bar
}

// New returns a bar drawing on stderr if it is a terminal and quiet is
// false; otherwise a silent bar.
func New(label string, quiet bool) *Bar {
	if quiet || !term.IsTerminal(int(os.Stderr.Fd())) {
		return &Bar{}
	}
	return &Bar{out: os.Stderr, label: label}
}

// Begin starts timing; the bar appears after Delay.
func (b *Bar) Begin(total int) {
	if b.out == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total, b.start = total, time.Now()
	b.timer = time.AfterFunc(Delay, b.show)
}

// show creates the bar. The decorator below takes b.mu when the bar renders,
// so nothing here talks to the bar while holding b.mu.
func (b *Bar) show() {
	b.mu.Lock()
	if b.ended {
		b.mu.Unlock()
		return
	}
	total, done, start := b.total, b.done, b.start
	b.mu.Unlock()
	p := mpb.New(mpb.WithOutput(b.out), mpb.WithWidth(30))
	bar := p.AddBar(int64(total),
		mpb.PrependDecorators(decor.Name(b.label+" "), decor.CountersNoUnit("%d/%d ")),
		mpb.AppendDecorators(decor.NewElapsed(decor.ET_STYLE_GO, start), decor.Any(func(decor.Statistics) string {
			b.mu.Lock()
			defer b.mu.Unlock()
			return " " + b.current
		})),
	)
	bar.SetCurrent(int64(done))
	b.mu.Lock()
	b.p, b.bar = p, bar
	ended := b.ended
	b.mu.Unlock()
	if ended { // End ran while the bar was being made
		bar.Abort(true)
		p.Wait()
	}
}

// Step records that done steps are finished and current is under way.
func (b *Bar) Step(done int, current string) {
	if b.out == nil {
		return
	}
	b.mu.Lock()
	b.done, b.current = done, current
	bar := b.bar
	b.mu.Unlock()
	if bar != nil {
		bar.SetCurrent(int64(done))
	}
}

// End removes the bar, if it was shown.
func (b *Bar) End() {
	if b.out == nil {
		return
	}
	b.mu.Lock()
	b.ended = true
	if b.timer != nil {
		b.timer.Stop()
	}
	p, bar := b.p, b.bar
	b.mu.Unlock()
	if bar != nil {
		bar.Abort(true)
		p.Wait()
	}
}
