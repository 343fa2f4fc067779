// Package progress draws a progress bar on a terminal for long runs, and
// nothing otherwise: not when stderr is not a terminal, not with --quiet,
// and not during the first two seconds (short runs stay clean).
//
// For scripts and tests that must act at a point of a run — the CLI tests
// interrupt a run once it has measured something — the environment
// variable CRYPTOCOST_EVENT_LOG names a file that every bar (terminal or
// not, quiet or not) appends a line to at each event: "LABEL begin TOTAL",
// "LABEL step DONE/TOTAL CURRENT", "LABEL end". Waiting for a line is
// waiting for the event itself, not guessing how long it takes.
package progress

import (
	"fmt"
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

// EventLogEnv is the environment variable naming the event log.
const EventLogEnv = "CRYPTOCOST_EVENT_LOG"

var (
	eventsOnce sync.Once
	events     io.Writer
)

// EventLog returns the event log named by CRYPTOCOST_EVENT_LOG, opened for
// appending once per process, or nil when it is not set (or cannot be
// opened: the run goes on without it). Each Write is one append, so lines
// from several writers do not interleave.
func EventLog() io.Writer {
	eventsOnce.Do(func() {
		if name := os.Getenv(EventLogEnv); name != "" {
			if f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
				events = f
			}
		}
	})
	return events
}

// Bar reports a run's progress on stderr. The zero value is silent.
type Bar struct {
	out    io.Writer
	label  string
	events io.Writer // the event log, or nil

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
		return &Bar{label: label, events: EventLog()}
	}
	return &Bar{out: os.Stderr, label: label, events: EventLog()}
}

// Events returns a bar that draws nothing and only writes the event log:
// for runs that print notes on stderr, which a bar would garble.
func Events(label string) *Bar { return &Bar{label: label, events: EventLog()} }

// event appends one line to the event log, if there is one.
func (b *Bar) event(format string, args ...any) {
	if b.events != nil {
		fmt.Fprintf(b.events, b.label+" "+format+"\n", args...)
	}
}

// Begin starts timing; the bar appears after Delay.
func (b *Bar) Begin(total int) {
	b.mu.Lock()
	b.total = total
	b.mu.Unlock()
	b.event("begin %d", total)
	if b.out == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.start = time.Now()
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
	if b.events != nil {
		b.mu.Lock()
		total := b.total
		b.mu.Unlock()
		b.event("step %d/%d %s", done, total, current)
	}
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
	b.event("end")
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
